import type { RequestContext } from "./request-context";
import type { JsonObject } from "./wire-types";

/** Which component a middleware is running in front of. */
export interface ComponentRef {
  readonly kind: "tool" | "resource" | "prompt";
  /** Tool or prompt name, or the resource's uri / uriTemplate. */
  readonly name: string;
}

/**
 * Runs the rest of the chain (ending in the component) and resolves with what it returned:
 * a final result or an `input_required` result. A middleware may pass a replacement context
 * for the component to read; the dispatcher's admission checks still use the original request's
 * capabilities, so a middleware cannot enlarge them.
 */
export type Next = (ctx?: RequestContext) => Promise<unknown>;

/**
 * App-wide or per-component `(ctx, next)` function, run anew on every round of an interactive operation.
 * Throw an `McpError` to refuse (it reaches the wire unchanged and the component does not run),
 * return something else to short-circuit, or return `next()`.
 *
 * @example const audit: Middleware = async (ctx, next, component) => { console.error(ctx.principal, component.name); return next(); };
 */
export type Middleware = (ctx: RequestContext, next: Next, component: ComponentRef) => Promise<unknown> | unknown;

/**
 * Checks every final result (the app's `resultValidator` option); throw an `McpError` to replace
 * it with that error. Never sees `input_required` rounds.
 */
export type ResultValidator = (result: JsonObject, info: { ctx: RequestContext; component: ComponentRef }) => void | Promise<void>;
