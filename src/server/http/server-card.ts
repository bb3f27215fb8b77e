import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonObject } from "../../protocol/wire-types";
import { MODERN_PROTOCOL_VERSION } from "../checks/inbound-checks";
import { MCP_NAME, type AppInfo } from "../request/app-info";

/** The schema URL every server card names (SEP-2127, the experimental-ext-server-card draft's v1). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The media type a server card is served as. */
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
/** The protocol revisions the card says a remote serves: 2025-11-25 (initialize, sessions) and 2026-07-28. */
export const CARD_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", MODERN_PROTOCOL_VERSION];

/** Options of a server card (`listen({ serverCard })`, `app.serverCardHandler()`). */
export interface ServerCardOptions {
  /**
   * The public URL of the Streamable HTTP endpoint the card describes (its `remotes[0].url`). For
   * `listen()`, default the OAuth resource's canonical URI when `auth` is on, else the listener's
   * URL; give it when clients reach the server through a proxy. Required for a mounted handler.
   */
  readonly url?: string;
  /**
   * Whether the endpoint requires a bearer token: the card then lists a required, secret
   * `Authorization` header. For `listen()`, default whether `auth` (the OAuth resource server) is on.
   */
  readonly oauth?: boolean;
  /** `Cache-Control: public, max-age=<this>`, in seconds. Default 3600. */
  readonly maxAgeSeconds?: number;
  /** Vendor metadata for the card's `_meta`, under reverse-DNS keys. */
  readonly _meta?: JsonObject;
}

/** A server card as a handler to route: web `fetch`, or Node `(req, res, next?)`; `card` is the document it serves. */
export interface ServerCardHandler {
  readonly card: JsonObject;
  /** GET or HEAD: the card (304 when `If-None-Match` names its ETag); OPTIONS: the CORS preflight; anything else 405. */
  fetch(request: Request): Promise<Response>;
  node(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`serverCard: url must be the endpoint's absolute http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new TypeError(`serverCard: url must be an http(s) URL, got ${JSON.stringify(url)}`);
  return url;
}

/** Checks what a card needs of the app before anything is served: a registry name and a short description. */
export function checkCardSource(info: AppInfo, options: ServerCardOptions): void {
  if (info.mcpName === undefined || !MCP_NAME.test(info.mcpName))
    throw new TypeError(
      'serverCard: the app has no mcpName; give McpApp.create({ mcpName: "io.github.<user>/<server>" }), the name a card is published under',
    );
  const length = info.description === undefined ? 0 : [...info.description].length;
  if (length < 1 || length > 100)
    throw new TypeError(
      `serverCard: a card needs the app's description, 1-100 characters (McpApp.create({ description })); it has ${length}`,
    );
  if (info.title !== undefined && [...info.title].length > 100) throw new TypeError("serverCard: the app's title is over 100 characters");
  const maxAge = options.maxAgeSeconds;
  if (maxAge !== undefined && (!Number.isSafeInteger(maxAge) || maxAge < 0))
    throw new TypeError(`serverCard: maxAgeSeconds must be a non-negative integer, got ${String(maxAge)}`);
  if (options.url !== undefined) checkedUrl(options.url);
}

/**
 * The server card of the app at `url` (SEP-2127): its identity as `serverInfo` gives it (name from
 * `mcpName`, version, title, description, icons, websiteUrl), its repository, and one
 * `streamable-http` remote with the protocol revisions it serves and, when OAuth is on, the
 * required `Authorization` header. Fields absent from the app are absent from the card.
 */
export function serverCard(info: AppInfo, url: string, options: ServerCardOptions = {}): JsonObject {
  checkCardSource(info, options);
  const remote: JsonObject = { type: "streamable-http", url: checkedUrl(url), supportedProtocolVersions: [...CARD_PROTOCOL_VERSIONS] };
  if (options.oauth === true)
    remote.headers = [
      {
        name: "Authorization",
        description: "An OAuth 2.1 bearer token for this server (its protected resource metadata names the authorization server)",
        isRequired: true,
        isSecret: true,
        value: "Bearer {token}",
        variables: { token: { description: "The access token", isRequired: true, isSecret: true } },
      },
    ];
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: info.mcpName!,
    version: info.version,
    description: info.description!,
    ...(info.title !== undefined && { title: info.title }),
    ...(info.icons !== undefined && { icons: info.icons.map((icon) => ({ ...icon })) }),
    ...(info.websiteUrl !== undefined && { websiteUrl: info.websiteUrl }),
    ...(info.repository !== undefined && { repository: { ...info.repository } }),
    remotes: [remote],
    ...(options._meta !== undefined && { _meta: options._meta }),
  };
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
};

/** Whether an `If-None-Match` value names `etag` (weak comparison, `*`, or a list). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/** Serves one card: its JSON text and ETag made once, CORS on every answer, 304 on a matching `If-None-Match`. */
export class ServerCardEndpoint implements ServerCardHandler {
  private readonly body: string;
  private readonly etag: string;
  private readonly cacheControl: string;

  constructor(
    readonly card: JsonObject,
    maxAgeSeconds = 3600,
  ) {
    this.body = JSON.stringify(card);
    this.etag = `"${createHash("sha256").update(this.body).digest("base64url").slice(0, 27)}"`;
    this.cacheControl = `public, max-age=${maxAgeSeconds}`;
  }

  answer(method: string, ifNoneMatch: string | undefined): { status: number; headers: Record<string, string>; body?: string } {
    if (method === "OPTIONS") return { status: 204, headers: { ...CORS, "access-control-max-age": "86400" } };
    if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { ...CORS, allow: "GET, HEAD, OPTIONS" } };
    const headers = { ...CORS, etag: this.etag, "cache-control": this.cacheControl, vary: "Accept" };
    if (matches(ifNoneMatch, this.etag)) return { status: 304, headers };
    return {
      status: 200,
      headers: { ...headers, "content-type": SERVER_CARD_MEDIA_TYPE, "content-length": String(Buffer.byteLength(this.body)) },
      ...(method === "GET" && { body: this.body }),
    };
  }

  // Bound: routed as `handler.node`, `handler.fetch` without their object.
  readonly fetch = async (request: Request): Promise<Response> => {
    const { status, headers, body } = this.answer(request.method, request.headers.get("if-none-match") ?? undefined);
    return new Response(body ?? null, { status, headers });
  };

  readonly node = (req: IncomingMessage, res: ServerResponse): void => {
    const { status, headers, body } = this.answer(req.method ?? "GET", req.headers["if-none-match"]);
    res.writeHead(status, headers).end(body);
  };
}
