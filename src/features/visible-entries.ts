import type { InboundRequest } from "../protocol/inbound-request";
import type { Authorization } from "../protocol/authorization";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";
import type { ListPaging } from "./list-result";
import type { ScopeHierarchy } from "./scope-hierarchy";

/** Distinct visible subsets kept per list; past it a subset is filtered anew per request (still correct). */
const MAX_KEPT_SUBSETS = 256;

/**
 * One list (`tools/list`, `resources/list`, ...) as each caller may see it: the app's entries in
 * their stable order, filtered to those whose scopes the request's token grants (after the scope
 * hierarchy), before any paging. A request without OAuth authorization sees everything. A list
 * with any scoped entry varies by authorization, so its cache hint is `cacheScope: "private"`.
 * Each distinct subset is one frozen array, so the list's page is built and encoded once per subset.
 */
export class VisibleEntries {
  /** The cache hint of this list's results. */
  readonly cache: ListCacheHint;
  /** How this list is paged: the app's paging, with this list's cache hint. */
  readonly paging: ListPaging;
  private readonly descriptors: readonly JsonObject[];
  private readonly scoped: boolean;
  private readonly byAuthorization = new WeakMap<Authorization, readonly JsonObject[]>();
  private readonly subsets = new Map<string, readonly JsonObject[]>();

  constructor(
    private readonly entries: readonly { readonly descriptor: JsonObject; readonly scopes: readonly string[] }[],
    lists: ListPaging,
    private readonly hierarchy: ScopeHierarchy,
  ) {
    const cache = lists.cache;
    this.descriptors = Object.freeze(entries.map((e) => e.descriptor));
    this.scoped = entries.some((e) => e.scopes.length > 0);
    this.cache = this.scoped ? { ...cache, cacheScope: "private" } : cache;
    this.paging = this.cache === cache ? lists : { ...lists, cache: this.cache };
  }

  /** The descriptors this request may see, in the list's order. */
  of(request: InboundRequest): readonly JsonObject[] {
    const authorization = request.authorization;
    if (!this.scoped || authorization === undefined) return this.descriptors;
    let shown = this.byAuthorization.get(authorization);
    if (shown === undefined) {
      const mask = this.entries.map((e) => (this.hierarchy.allows(e.scopes, authorization) ? "1" : "0")).join("");
      shown = this.subsets.get(mask);
      if (shown === undefined) {
        shown = Object.freeze(this.entries.filter((_, i) => mask[i] === "1").map((e) => e.descriptor));
        if (this.subsets.size < MAX_KEPT_SUBSETS) this.subsets.set(mask, shown);
      }
      this.byAuthorization.set(authorization, shown);
    }
    return shown;
  }
}
