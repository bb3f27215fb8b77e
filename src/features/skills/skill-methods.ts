import { clip } from "../../protocol/clip";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { InboundRequest } from "../../protocol/inbound-request";
import { InsufficientScopeError } from "../../protocol/insufficient-scope-error";
import type { JsonObject, ListCacheHint } from "../../protocol/wire-types";
import type { FeatureMethod, MethodSpec } from "../feature-module";
import { listResult, PAGINATED_PARAMS, type ListPaging } from "../list-result";
import type { ScopeHierarchy } from "../scope-hierarchy";
import { VisibleEntries } from "../visible-entries";
import type { SkillCatalog, SkillRecord } from "./skill-catalog";
import { skillCache } from "./skill-files";
import { canonicalUri } from "./skill-uri";

const URI_PARAMS = { type: "object", required: ["uri"], properties: { uri: { type: "string" } } };

/** skills/list, skills/get and resources/directory/read as data (SEP-2640): custom methods, both eras. */
// skills/list pages are large (100 entries of every file's digest): the fast lane writes them.
export const SKILLS_LIST: MethodSpec = {
  method: "skills/list",
  inputRequired: false,
  paramsSchema: PAGINATED_PARAMS,
  direct: { cacheable: true, result: "as-is" },
};
export const SKILLS_GET: MethodSpec = { method: "skills/get", inputRequired: false, paramsSchema: URI_PARAMS };
export const RESOURCES_DIRECTORY_READ: MethodSpec = {
  method: "resources/directory/read",
  inputRequired: false,
  paramsSchema: { ...URI_PARAMS, properties: { ...URI_PARAMS.properties, cursor: { type: "string" } } },
};

/** `data.uri` of a refusal: the uri as sent, unless it is too long to repeat. */
function echoed(uri: string): JsonObject | undefined {
  return uri.length <= 2048 ? { uri } : undefined;
}

/** A 2025-era result carries no caching fields: they are defined from 2026-07-28 on. */
function forEra(request: InboundRequest, result: JsonObject): JsonObject {
  if (request.era !== "legacy") return result;
  const { ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return rest;
}

/** The parts of the catalog the methods answer from; `swap` replaces them at once (reload). */
export class SkillAnswers {
  private listed!: VisibleEntries;
  private catalog!: SkillCatalog;

  constructor(
    catalog: SkillCatalog,
    private readonly cache: ListCacheHint,
    private readonly lists: ListPaging,
    private readonly scopes: ScopeHierarchy,
  ) {
    this.swap(catalog);
  }

  swap(catalog: SkillCatalog): void {
    const entries = catalog.skills.map((skill) => ({ descriptor: skill.entry, scopes: skill.scopes }));
    this.listed = new VisibleEntries(entries, { ...this.lists, cache: this.cache }, this.scopes);
    this.catalog = catalog;
  }

  /** The skill whose `SKILL.md` is at `uri`, if the caller may see it (else -32003 naming the scopes); undefined when none is served there. */
  private skillAt(uri: string): SkillRecord | undefined {
    return this.catalog.byUri.get(canonicalUri(uri) ?? "");
  }

  private allow(request: InboundRequest, skill: SkillRecord): void {
    if (!this.scopes.allows(skill.scopes, request.authorization)) throw new InsufficientScopeError(skill.scopes);
  }

  methods(directoryRead: boolean): FeatureMethod[] {
    const methods: FeatureMethod[] = [
      {
        ...SKILLS_LIST,
        handle: async (request) => forEra(request, listResult(request, "skills", this.listed.of(request), this.listed.paging)),
      },
      {
        ...SKILLS_GET,
        scopesFor: (params) => (typeof params.uri === "string" ? this.skillAt(params.uri)?.scopes : undefined),
        handle: async (request) => {
          const uri = request.params.uri as string;
          const skill = this.skillAt(uri);
          if (skill === undefined) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${clip(uri)}`, echoed(uri));
          this.allow(request, skill);
          return forEra(request, { resultType: "complete", skill: skill.entry, ...skillCache(this.cache, skill) });
        },
      },
    ];
    if (directoryRead)
      methods.push({
        ...RESOURCES_DIRECTORY_READ,
        scopesFor: (params) =>
          typeof params.uri === "string" ? this.catalog.dirs.get(canonicalUri(params.uri) ?? "")?.owner.scopes : undefined,
        handle: async (request) => {
          const uri = request.params.uri as string;
          const dir = this.catalog.dirs.get(canonicalUri(uri) ?? "");
          if (dir === undefined)
            throw new McpError(ErrorCode.InvalidParams, `${clip(uri)} is not a directory resource this server serves`, echoed(uri));
          this.allow(request, dir.owner);
          const paging = { ...this.lists, cache: skillCache(this.cache, dir.owner) };
          return forEra(request, listResult(request, "resources", dir.children, paging));
        },
      });
    return methods;
  }
}
