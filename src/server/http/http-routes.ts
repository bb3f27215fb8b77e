import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A route of `listen()`'s listener beside the MCP path (`/healthz`, `/.well-known/...`), by exact
 * pathname. It runs after the listener's Host/Origin checks and before authentication, and writes
 * its own answer on `res`; a rejection it returns is logged and answered 500.
 */
export type HttpRoute = ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>) & {
  /** Public metadata any web page may read (a server card): a foreign `Origin` is not refused for it. */
  readonly crossOrigin?: boolean;
};

/** No routes beside the MCP path: every other pathname is 404. */
export const NO_ROUTES: ReadonlyMap<string, HttpRoute> = new Map();
