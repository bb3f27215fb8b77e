import { MIDDLEWARE_KEY } from "./metadata-keys";
import type { Middleware } from "../protocol/middleware";

/**
 * Attaches middleware to every component of a class, or to one component method.
 * Runs after app-wide middleware and before the component's own `middleware` option.
 *
 * @example @UseMiddleware((ctx, next) => (ctx.principal === null ? Result.error("Sign in first") : next()))
 */
export function UseMiddleware(...middleware: Middleware[]): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    const ctor = propertyKey === undefined ? (target as Function) : target.constructor;
    const key = propertyKey === undefined ? undefined : String(propertyKey);
    const own: Middleware[] =
      (key === undefined ? Reflect.getOwnMetadata(MIDDLEWARE_KEY, ctor) : Reflect.getOwnMetadata(MIDDLEWARE_KEY, ctor, key)) ?? [];
    if (key === undefined) Reflect.defineMetadata(MIDDLEWARE_KEY, [...own, ...middleware], ctor);
    else Reflect.defineMetadata(MIDDLEWARE_KEY, [...own, ...middleware], ctor, key);
  };
}

export function declaredMiddleware(ctor: Function, method: string): Middleware[] {
  return [...(Reflect.getOwnMetadata(MIDDLEWARE_KEY, ctor) ?? []), ...(Reflect.getOwnMetadata(MIDDLEWARE_KEY, ctor, method) ?? [])];
}
