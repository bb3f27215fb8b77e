import { createHash } from "node:crypto";
import type { JsonObject } from "../../protocol/wire-types";
import { FrontmatterError, parseFrontmatter } from "./skill-frontmatter";
import { mimeTypeOf } from "./skill-mime";
import { frontmatterProblems } from "./skill-rules";
import type { FileInput, SourceFiles } from "./skill-sources";
import { skillUri } from "./skill-uri";
import { DIRECTORY_MIME_TYPE, SKILL_MANIFEST } from "./skills-extension";

/** One skill as served: its `skills/list` entry and `resources/list` entry, both frozen, and its scopes. */
export interface SkillRecord {
  /** The URI of its `SKILL.md`. */
  readonly uri: string;
  /** Its path in the skill namespace ("acme/refunds"). */
  readonly path: string;
  readonly entry: JsonObject;
  readonly listed: JsonObject;
  readonly scopes: readonly string[];
}

/** One file as served: its metadata (digest computed once) and how to read it; `owner` is the innermost skill holding it. */
export interface FileRecord {
  readonly uri: string;
  readonly size: number;
  readonly digest: string;
  readonly mimeType: string;
  readonly origin: string;
  read(): Promise<Uint8Array>;
  readonly owner: SkillRecord;
}

/** One directory of a skill: its direct children as `resources/directory/read` lists them. */
export interface DirRecord {
  readonly uri: string;
  readonly children: readonly JsonObject[];
  readonly owner: SkillRecord;
}

/** Everything the feature serves, compiled once per build (bootstrap and each reload). */
export interface SkillCatalog {
  /** By `SKILL.md` URI, in URI order. */
  readonly skills: readonly SkillRecord[];
  readonly byUri: ReadonlyMap<string, SkillRecord>;
  readonly files: ReadonlyMap<string, FileRecord>;
  readonly dirs: ReadonlyMap<string, DirRecord>;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * Compiles the files the sources found into the catalog, checking every rule of SEP-2640 and the
 * Agent Skills specification on the way; `problems` gets one line per broken rule, naming the file.
 * A skill is every namespace folder holding a `SKILL.md`; its resources are every file below it
 * (a nested skill's included), each with its SHA-256 digest and size, in URI order.
 */
export function buildCatalog(sources: SourceFiles, limits: { files: number; bytes: number }, problems: string[]): SkillCatalog {
  const byPath = new Map<string, FileInput & { uri: string }>();
  for (const file of sources.files) {
    const key = file.segments.join("/");
    const earlier = byPath.get(key);
    if (earlier !== undefined) {
      problems.push(
        `${file.origin}: the same skill file as ${earlier.origin} (skill://${key}); give one of the skills another path or prefix`,
      );
      continue;
    }
    const uri = skillUri(file.segments);
    if (uri === undefined) {
      problems.push(`${file.origin}: a name in its path cannot be written in a URI; rename it`);
      continue;
    }
    byPath.set(key, { ...file, uri });
  }
  const roots = [...byPath.keys()].filter((p) => p.endsWith(`/${SKILL_MANIFEST}`)).map((p) => p.slice(0, -SKILL_MANIFEST.length - 1));
  const rootSet = new Set(roots);
  /** The skill roots holding `p`, innermost first (its ancestor folders that hold a SKILL.md). */
  const holders = (p: string) => {
    const found: string[] = [];
    for (let at = p.lastIndexOf("/"); at > 0; at = p.lastIndexOf("/", at - 1)) if (rootSet.has(p.slice(0, at))) found.push(p.slice(0, at));
    return found;
  };
  const innermost = (p: string) => holders(p)[0];
  const filesOf = new Map<string, (FileInput & { uri: string })[]>();
  for (const [p, file] of byPath)
    for (const root of holders(p)) {
      const list = filesOf.get(root);
      if (list === undefined) filesOf.set(root, [file]);
      else list.push(file);
    }
  const digests = new Map<string, string>();
  const digestOf = (file: FileInput & { uri: string }) => {
    let digest = digests.get(file.uri);
    if (digest === undefined) digests.set(file.uri, (digest = `sha256:${createHash("sha256").update(file.bytes).digest("hex")}`));
    return digest;
  };
  const skills = new Map<string, SkillRecord>();
  for (const root of roots) {
    const manifest = byPath.get(`${root}/${SKILL_MANIFEST}`)!;
    const inside = filesOf.get(root)!;
    let frontmatter: JsonObject;
    try {
      frontmatter = parseFrontmatter(manifest.bytes);
    } catch (error) {
      if (!(error instanceof FrontmatterError)) throw error;
      problems.push(`${manifest.origin}: ${error.message}`);
      continue;
    }
    const broken = frontmatterProblems(frontmatter, root.slice(root.lastIndexOf("/") + 1));
    if (broken.length > 0) {
      problems.push(...broken.map((p) => `${manifest.origin}: ${p}`));
      continue;
    }
    const bytes = inside.reduce((sum, f) => sum + f.bytes.byteLength, 0);
    if (inside.length > limits.files || bytes > limits.bytes) {
      problems.push(
        `${manifest.origin}: the skill has ${inside.length} files and ${bytes} bytes, over the limit of ${limits.files} files and ${limits.bytes} bytes ` +
          "(SEP-2640: servers should not publish more; hosts may decline it): split the skill, or raise skills({ limits })",
      );
      continue;
    }
    const resources = inside
      .map((f) => ({ uri: f.uri, digest: digestOf(f), size: f.bytes.byteLength }))
      .sort((a, b) => byCodeUnits(a.uri, b.uri));
    const entry = deepFreeze({ uri: manifest.uri, frontmatter, resources });
    const listed = Object.freeze({
      uri: manifest.uri,
      name: frontmatter.name as string,
      description: frontmatter.description as string,
      mimeType: "text/markdown",
      size: manifest.bytes.byteLength,
    });
    skills.set(root, { uri: manifest.uri, path: root, entry, listed, scopes: sources.scopes.get(root) ?? [] });
  }
  for (const key of sources.scopes.keys())
    if (!rootSet.has(key)) problems.push(`skills({ scopes }): "${key}" names no skill; a key is a skill's path, such as "acme/refunds"`);
  const files = new Map<string, FileRecord>();
  const dirChildren = new Map<string, Map<string, JsonObject>>();
  const child = (dir: string, key: string, value: JsonObject) => {
    let children = dirChildren.get(dir);
    if (children === undefined) dirChildren.set(dir, (children = new Map()));
    children.set(key, value);
  };
  for (const [p, file] of byPath) {
    const root = innermost(p);
    const owner = root === undefined ? undefined : skills.get(root);
    if (owner === undefined) continue;
    const name = p.slice(p.lastIndexOf("/") + 1);
    const record = {
      uri: file.uri,
      size: file.bytes.byteLength,
      digest: digestOf(file),
      mimeType: mimeTypeOf(name),
      origin: file.origin,
      read: file.read,
      owner,
    };
    files.set(file.uri, record);
    child(p.slice(0, p.lastIndexOf("/")), p, Object.freeze({ uri: file.uri, name, mimeType: record.mimeType, size: record.size }));
    // Every folder between the file and the outermost skill holding it is a directory resource.
    const outer = holders(p).at(-1)!;
    for (let dir = p.slice(0, p.lastIndexOf("/")); dir.length > outer.length; dir = dir.slice(0, dir.lastIndexOf("/"))) {
      const parent = dir.slice(0, dir.lastIndexOf("/"));
      const uri = skillUri(dir.split("/"))!;
      child(parent, dir, Object.freeze({ uri, name: dir.slice(dir.lastIndexOf("/") + 1), mimeType: DIRECTORY_MIME_TYPE }));
    }
  }
  const dirs = new Map<string, DirRecord>();
  for (const [dir, children] of dirChildren) {
    const owner = skills.get(dir) ?? skills.get(innermost(dir) ?? "");
    if (owner === undefined) continue;
    const sorted = Object.freeze([...children.values()].sort((a, b) => byCodeUnits(String(a.uri), String(b.uri))));
    const uri = skillUri(dir.split("/"))!;
    dirs.set(uri, { uri, children: sorted, owner });
  }
  const ordered = [...skills.values()].sort((a, b) => byCodeUnits(a.uri, b.uri));
  return { skills: ordered, byUri: new Map(ordered.map((s) => [s.uri, s])), files, dirs };
}

/** Names two skills of the catalog share (a host must tell them apart by path): worth a warning, not an error. */
export function sharedNames(catalog: SkillCatalog): string[] {
  const byName = new Map<string, string[]>();
  for (const skill of catalog.skills) {
    const name = String(skill.listed.name);
    byName.set(name, [...(byName.get(name) ?? []), skill.uri]);
  }
  return [...byName].filter(([, uris]) => uris.length > 1).map(([name, uris]) => `"${name}" is the name of ${uris.join(" and ")}`);
}
