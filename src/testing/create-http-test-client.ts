import type { HttpListener, ListenOptions } from "../server/http/listen-options";
import type { McpApp } from "../server/mcp-app";
import { ClientHost, type PrincipalChoice } from "./client-host";
import { HttpChannel } from "./http-channel";
import { kitApp, type KitAppOptions } from "./kit-app";
import { TestClient, type TestClientOptions } from "./test-client";

export interface HttpTestClientOptions extends TestClientOptions, KitAppOptions {
  /** How the kit listens on an app (default 127.0.0.1, a free port, /mcp). Not for a URL. */
  listen?: ListenOptions;
  /** Headers sent with every request (an `Authorization`, say). */
  headers?: Record<string, string>;
  /**
   * The headers that authenticate a request as `principal`, for `client.as(principal)` against a
   * server with its own authenticator (for a URL, the only way `as` works). Without it, on an app
   * the kit listens on, `as(principal)` gets a listener of its own that authenticates every request
   * as that principal.
   */
  principalHeaders?: (principal: string) => Record<string, string>;
}

/**
 * A test client over Streamable HTTP: the kit listens on the app (or the app it builds from
 * components) on 127.0.0.1, or talks to any URL. Requests carry the headers 2026-07-28 requires;
 * JSON and SSE answers are both read; `round.http` has the status and headers.
 *
 * @example const client = await createHttpTestClient([PreferenceTools], { capabilities: { elicitation: {} } });
 */
export async function createHttpTestClient(
  target: McpApp | readonly Function[] | string | URL,
  options: HttpTestClientOptions = {},
): Promise<TestClient> {
  const { app: appOptions, clock: clockOption, listen, headers, principalHeaders, ...defaults } = options;
  const isUrl = typeof target === "string" || target instanceof URL;
  if (isUrl && (appOptions !== undefined || listen !== undefined))
    throw new TypeError("createHttpTestClient: the app and listen options apply to an app, not a URL");
  const built = isUrl ? undefined : kitApp(target, { app: appOptions, clock: clockOption });
  const listeners = new Map<string, Promise<HttpListener>>();
  const listenAs = (principal: PrincipalChoice): Promise<HttpListener> => {
    const key = principal === undefined ? "default" : JSON.stringify(principal.principal);
    let listener = listeners.get(key);
    if (listener === undefined) {
      const authenticate =
        principal === undefined ? listen?.authenticate : principal.principal === null ? undefined : constant(principal.principal);
      listener = built!.app.listen({ ...listen, authenticate });
      listeners.set(key, listener);
    }
    return listener;
  };
  const url = isUrl ? String(target) : (await listenAs(undefined)).url;

  const host = new ClientHost({
    boundary: "http",
    app: built?.app,
    clock: built?.clock,
    noClockReason:
      built?.noClockReason ??
      "the server at a URL keeps its own clock; give createHttpTestClient the app (built with createTestClock()) to control it",
    url,
    timeoutMs: 10_000,
    open: async (principal, handlers) => {
      const who = principal?.principal;
      const asHeaders = who !== undefined && who !== null && principalHeaders ? principalHeaders(who) : undefined;
      const endpoint = principal === undefined || principalHeaders || isUrl ? url : (await listenAs(principal)).url;
      return new HttpChannel({ url: endpoint, headers: { ...headers, ...asHeaders }, ...handlers });
    },
    checkPrincipal: () => {
      if (isUrl && !principalHeaders) {
        throw new Error(
          "client.as: for a server at a URL, give createHttpTestClient the principalHeaders option (how to authenticate as a principal)",
        );
      }
    },
    dispose: async () => {
      const opened = await Promise.all([...listeners.values()].map((l) => l.catch(() => undefined)));
      await Promise.all(opened.map((l) => l?.close()));
      if (built?.owned) await built.app.close();
    },
  });
  return new TestClient(host, defaults);
}

function constant(principal: string): () => string {
  return () => principal;
}
