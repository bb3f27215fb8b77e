import type { InboundRequest } from "../../protocol/inbound-request";
import type { JsonObject } from "../../protocol/wire-types";
import type { ResourceSource } from "../feature-module";
import type { ListPaging } from "../list-result";
import type { VisibleEntries } from "../visible-entries";

/** Joined lists kept per combination of parts (each part is the same array while it is unchanged). */
type Joined = WeakMap<readonly JsonObject[], Joined | readonly JsonObject[]>;

/**
 * `resources/list` as one caller sees it: the app's `@Resource` entries, then each feature's
 * resource source's (skills' `SKILL.md` files). The joined array is made once per combination of
 * the parts' arrays, so a list page is still built and encoded once per distinct view.
 */
export class ListedResources {
  private readonly joined: Joined = new WeakMap();

  constructor(
    private readonly own: VisibleEntries,
    private readonly sources: () => readonly ResourceSource[],
  ) {}

  /** The paging of the joined list: private as soon as any part varies by caller. */
  paging(): ListPaging {
    const own = this.own.paging;
    if (own.cache.cacheScope === "private" || !this.sources().some((s) => s.scoped)) return own;
    return { ...own, cache: { ...own.cache, cacheScope: "private" } };
  }

  of(request: InboundRequest): readonly JsonObject[] {
    const own = this.own.of(request);
    const sources = this.sources();
    if (sources.length === 0) return own;
    let level: Joined = this.joined;
    const parts = [own, ...sources.map((s) => s.list(request))];
    for (let i = 0; i < parts.length - 1; i++) {
      let next = level.get(parts[i]!) as Joined | undefined;
      if (next === undefined) level.set(parts[i]!, (next = new WeakMap()));
      level = next;
    }
    const last = parts[parts.length - 1]!;
    let all = level.get(last) as readonly JsonObject[] | undefined;
    if (all === undefined) level.set(last, (all = Object.freeze(parts.flat())));
    return all;
  }
}
