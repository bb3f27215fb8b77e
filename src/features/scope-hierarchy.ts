import type { Authorization } from "../protocol/authorization";
import { RegistrationError } from "./registration-error";

/** One OAuth scope token (RFC 6749 section 3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Which scope implies which: `{ preferences: ["preferences:read", "preferences:admin"] }`. */
export type ScopeHierarchyOptions = Readonly<Record<string, readonly string[]>>;

/** Throws a RegistrationError naming `where` unless every entry is one scope token. */
export function checkScopes(scopes: unknown, where: string): readonly string[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes)) throw new RegistrationError(`${where}: scopes must be an array of scope strings`);
  for (const scope of scopes) {
    if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope))
      throw new RegistrationError(
        `${where}: ${JSON.stringify(scope)} is not an OAuth scope (printable ASCII, no spaces, quotes or backslashes)`,
      );
  }
  return [...new Set(scopes as string[])];
}

/**
 * The app's scope hierarchy (`McpAppOptions.scopeHierarchy`): a granted scope grants every scope
 * it implies, transitively. Scopes are checked against what a request's token granted, expanded
 * once per token.
 */
export class ScopeHierarchy {
  private readonly implied = new Map<string, readonly string[]>();
  private readonly expanded = new WeakMap<Authorization, ReadonlySet<string>>();

  constructor(options: ScopeHierarchyOptions = {}) {
    for (const [parent, children] of Object.entries(options)) {
      checkScopes([parent], "scopeHierarchy");
      this.implied.set(parent, checkScopes(children, `scopeHierarchy["${parent}"]`));
    }
  }

  /** Every scope the hierarchy names, parents and children. */
  get scopes(): readonly string[] {
    return [...new Set([...this.implied.keys(), ...[...this.implied.values()].flat()])];
  }

  /** The granted scopes with everything they imply. */
  effective(authorization: Authorization): ReadonlySet<string> {
    let set = this.expanded.get(authorization);
    if (set === undefined) {
      const found = new Set<string>();
      const queue = [...authorization.scopes];
      while (queue.length > 0) {
        const scope = queue.pop()!;
        if (found.has(scope)) continue;
        found.add(scope);
        queue.push(...(this.implied.get(scope) ?? []));
      }
      set = found;
      this.expanded.set(authorization, set);
    }
    return set;
  }

  /** True when `required` is all granted; a request without authorization is not restricted. */
  allows(required: readonly string[], authorization: Authorization | undefined): boolean {
    if (required.length === 0 || authorization === undefined) return true;
    const granted = this.effective(authorization);
    return required.every((scope) => granted.has(scope));
  }
}
