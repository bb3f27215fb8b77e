import type { AuthOptions } from "../auth/bearer-auth";
import { InvalidTokenError } from "../auth/token-verifier";
import type { Authorization } from "../protocol/authorization";
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

/** The issuer the kit's stand-in verifier names in the metadata of a scoped listener (never contacted). */
const KIT_ISSUER = "https://authorization.roundtrip-mcp.invalid";
/** The bearer token a scoped client sends: the kit's verifier grants its listener's scopes to it. */
const KIT_TOKEN = "roundtrip-mcp-kit";

/**
 * A test client over Streamable HTTP: the kit listens on the app (or the app it builds from
 * components) on 127.0.0.1, or talks to any URL. Requests carry the headers 2026-07-28 requires;
 * JSON and SSE answers are both read; `round.http` has the status and headers.
 * `client.as(principal, { scopes })` (an app the kit listens on) gets a listener of its own with
 * `auth`, whose stand-in verifier grants exactly those scopes to the token the client sends: the
 * real OAuth path (403 challenges, filtered lists, `ctx.authorization`) with no authorization server.
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
    const key = principal === undefined ? "default" : JSON.stringify([principal.principal, principal.scopes ?? null]);
    let listener = listeners.get(key);
    if (listener === undefined) {
      if (principal?.scopes !== undefined) {
        listener = built!.app.listen({ ...listen, authenticate: undefined, auth: kitAuth(principal.principal!, principal.scopes) });
      } else {
        const authenticate =
          principal === undefined ? listen?.authenticate : principal.principal === null ? undefined : constant(principal.principal);
        listener = built!.app.listen({ ...listen, authenticate });
      }
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
      if (principal?.scopes !== undefined) {
        const endpoint = (await listenAs(principal)).url;
        return new HttpChannel({
          url: endpoint,
          headers: { ...withoutAuthorization(headers), authorization: `Bearer ${KIT_TOKEN}` },
          ...handlers,
        });
      }
      const who = principal?.principal;
      const asHeaders = who !== undefined && who !== null && principalHeaders ? principalHeaders(who) : undefined;
      const endpoint = principal === undefined || principalHeaders || isUrl ? url : (await listenAs(principal)).url;
      return new HttpChannel({ url: endpoint, headers: { ...headers, ...asHeaders }, ...handlers });
    },
    checkPrincipal: (principal, scopes) => {
      if (scopes !== undefined && isUrl)
        throw new Error(
          "client.as: scopes for a server at a URL need its authorization server: send its token in the headers option (see docs/authorization.md); or give createHttpTestClient the app",
        );
      if (scopes !== undefined && principal === null)
        throw new Error(
          "client.as(null, { scopes }): over HTTP a verified token always names a principal; give one (anonymous scopes work in-process, createTestClient)",
        );
      if (scopes !== undefined) return;
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
  return TestClient.fromHost(host, defaults);
}

function constant(principal: string): () => string {
  return () => principal;
}

/** `auth` for a scoped client's listener: every request with the kit's token is `principal` holding exactly `scopes`. */
function kitAuth(principal: string, scopes: readonly string[]): AuthOptions {
  const granted: Authorization = Object.freeze({
    scopes: Object.freeze([...scopes]),
    claims: Object.freeze({ iss: KIT_ISSUER, sub: principal, scope: scopes.join(" ") }),
    issuer: KIT_ISSUER,
    subject: principal,
  });
  return {
    verifier: {
      issuer: KIT_ISSUER,
      verify: async (token) => {
        if (token !== KIT_TOKEN) throw new InvalidTokenError("not the test kit's token");
        return granted;
      },
    },
    principal: () => principal,
  };
}

/** The default headers without an Authorization (a scoped client sends the kit's). */
function withoutAuthorization(headers: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== "authorization") kept[name] = headers[name]!;
  return kept;
}
