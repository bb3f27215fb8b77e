import type { JsonObject } from "../protocol/wire-types";
import type { Middleware } from "../protocol/middleware";
import type { RateLimit } from "../protocol/rate-limit";

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Fields every component accepts. */
export interface CommonComponentOptions {
  /** Wire name; 1 to 128 of `A-Za-z0-9_.-`. Defaults to the method name (or the class name for a class component). */
  name?: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  /** Free-form `_meta` published with the component's descriptor. */
  _meta?: JsonObject;
  /** Middleware run, in order, after the app-wide middleware, on every round. */
  middleware?: Middleware[];
  /**
   * Milliseconds one round of this component may take (middleware included) before the request's
   * signal aborts and the client gets -32603 "Request timed out". Default: the app's `timeoutMs`.
   */
  timeoutMs?: number;
  /**
   * This component's rate limit, per principal (a token bucket, checked before every round of
   * it); `false` exempts it from the app's `rateLimits.default`. Default: the app's default.
   *
   * @example @Tool({ rateLimit: { limit: 5, windowMs: 60_000 } })
   */
  rateLimit?: RateLimit | false;
  /**
   * OAuth scopes a caller needs, all of them (after the app's `scopeHierarchy`), to see this
   * component in its list and to run it; added to the class's and method's `@Scopes`.
   */
  scopes?: string[];
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}
