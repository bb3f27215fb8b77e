import { createHash } from "node:crypto";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { InboundRequest } from "../../protocol/inbound-request";
import type { RequestContext } from "../../protocol/request-context";
import type { JsonObject, ListCacheHint } from "../../protocol/wire-types";
import type { ComponentDefinition } from "../component-definition";
import type { ResourceSource, Selection } from "../feature-module";
import type { ScopeHierarchy } from "../scope-hierarchy";
import { VisibleEntries } from "../visible-entries";
import type { ListPaging } from "../list-result";
import { resourceNotFound, shapeResourceResult } from "../resources/resource-result";
import type { SkillCatalog, SkillRecord } from "./skill-catalog";
import { canonicalUri } from "./skill-uri";

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads a skill's files for `resources/read`: the method of every skill's component. A file is
 * read again from where it lives and served only while it still has the size and digest its
 * entry publishes; one changed since the catalog was built is a server error (logged with the
 * file), never content a host would refuse. Text when the bytes are UTF-8, else a base64 blob.
 */
export class SkillFileReader {
  constructor(private readonly catalog: () => SkillCatalog) {}

  async read(ctx: RequestContext): Promise<JsonObject> {
    const uri = String(ctx.requestParams.uri);
    const file = this.catalog().files.get(canonicalUri(uri) ?? "");
    if (file === undefined) throw resourceNotFound(uri);
    const bytes = await file.read();
    if (bytes.byteLength !== file.size || `sha256:${createHash("sha256").update(bytes).digest("hex")}` !== file.digest)
      throw new Error(`skill file ${file.origin} changed since the skills catalog was built; call reload() on the skills feature`);
    try {
      return { mimeType: file.mimeType, text: UTF8.decode(bytes) };
    } catch {
      return { mimeType: file.mimeType, blob: Buffer.from(bytes).toString("base64") };
    }
  }
}

/** The cache hint of what a skill serves: the feature's, private for a skill some callers may not see. */
export function skillCache(cache: ListCacheHint, skill: SkillRecord): ListCacheHint {
  return skill.scopes.length > 0 && cache.cacheScope !== "private" ? { ...cache, cacheScope: "private" } : cache;
}

/** The component that reads the files of `skill` (its scopes, the app's middleware and rate limits apply as to any resource). */
export function skillComponent(skill: SkillRecord, reader: SkillFileReader, cache: ListCacheHint): ComponentDefinition {
  const template = `${skill.uri.slice(0, -"SKILL.md".length)}{+file}`;
  const { ttlMs, cacheScope } = skillCache(cache, skill);
  const shapeOf = { where: `skill ${skill.path}`, ttlMs, cacheScope };
  return {
    ref: { kind: "resource", name: template },
    where: `skills: ${skill.path}`,
    token: SkillFileReader,
    instance: reader,
    methodName: "read",
    params: [{ kind: "ctx" }],
    middleware: [],
    elicits: [],
    carriedFlow: false,
    descriptor: skill.listed,
    scopes: skill.scopes,
    bind: () => ({ ok: true, whole: undefined, named: {} }),
    declined: () => undefined,
    shape: (value, ctx) => shapeResourceResult(shapeOf, String(ctx.requestParams.uri), value),
    recover: () => undefined,
  };
}

/** The catalog's part in `resources/list` and `resources/read`: every `SKILL.md` listed, every file read. */
export class SkillResources implements ResourceSource {
  private listed: VisibleEntries;
  private components: ReadonlyMap<SkillRecord, ComponentDefinition>;

  constructor(
    private catalog: SkillCatalog,
    private readonly reader: SkillFileReader,
    private readonly cache: ListCacheHint,
    private readonly lists: ListPaging,
    private readonly scopes: ScopeHierarchy,
  ) {
    ({ listed: this.listed, components: this.components } = this.compile(catalog));
  }

  get scoped(): boolean {
    return this.catalog.skills.some((s) => s.scopes.length > 0);
  }

  /** Serves `catalog` from now on. */
  swap(catalog: SkillCatalog): void {
    ({ listed: this.listed, components: this.components } = this.compile(catalog));
    this.catalog = catalog;
  }

  list(request: InboundRequest): readonly JsonObject[] {
    return this.listed.of(request);
  }

  select(uri: string): Selection | undefined {
    const canonical = canonicalUri(uri);
    if (canonical === undefined) return undefined;
    const file = this.catalog.files.get(canonical);
    if (file !== undefined) return { component: this.components.get(file.owner)! };
    if (this.catalog.dirs.has(canonical))
      throw new McpError(ErrorCode.InvalidParams, `${uri} is a directory of a skill: list it with resources/directory/read`, { uri });
    return undefined;
  }

  private compile(catalog: SkillCatalog) {
    const entries = catalog.skills.map((skill) => ({ descriptor: skill.listed, scopes: skill.scopes }));
    return {
      listed: new VisibleEntries(entries, this.lists, this.scopes),
      components: new Map(catalog.skills.map((s) => [s, skillComponent(s, this.reader, this.cache)])),
    };
  }
}
