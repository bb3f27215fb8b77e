import { SCOPES_KEY } from "./metadata-keys";

/**
 * Declares the OAuth scopes a class's components (on the class) or one component (on a method)
 * need; a caller must hold all of them, after the app's `scopeHierarchy`. Adds to the component's
 * own `scopes` option. Only requests authorized by OAuth are restricted (see docs/authorization.md).
 *
 * @example @Scopes("preferences:read") class PreferencesComponents { ... }
 */
export function Scopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    const ctor = propertyKey === undefined ? (target as Function) : target.constructor;
    const key = propertyKey === undefined ? undefined : String(propertyKey);
    const own: string[] =
      (key === undefined ? Reflect.getOwnMetadata(SCOPES_KEY, ctor) : Reflect.getOwnMetadata(SCOPES_KEY, ctor, key)) ?? [];
    if (key === undefined) Reflect.defineMetadata(SCOPES_KEY, [...own, ...scopes], ctor);
    else Reflect.defineMetadata(SCOPES_KEY, [...own, ...scopes], ctor, key);
  };
}

/** The class's and the method's `@Scopes`, class first. */
export function declaredScopes(ctor: Function, method: string): unknown[] {
  return [...(Reflect.getOwnMetadata(SCOPES_KEY, ctor) ?? []), ...(Reflect.getOwnMetadata(SCOPES_KEY, ctor, method) ?? [])];
}
