import type { JsonObject } from "../dispatch/wire-types";
import type { Middleware } from "../dispatch/middleware";

/** A class whose instances class-validator can validate (a DTO). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DtoClass<T = object> = new (...args: any[]) => T;

/** A raw JSON Schema object, passed through unchanged. */
export type JsonSchema = JsonObject;

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
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type CacheScope = "public" | "private";
