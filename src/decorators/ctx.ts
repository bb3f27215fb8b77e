import { declareParam } from "./record-metadata";

/**
 * Injects the framework-owned, read-only `RequestContext` of the current round.
 *
 * @example handle(@Ctx() ctx: RequestContext) { ctx.progress.report(1, 2); }
 */
export function Ctx(): ParameterDecorator {
  return (target, propertyKey, index) => declareParam(target, propertyKey, { index, kind: "ctx" });
}
