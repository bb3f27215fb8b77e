import type { ListCacheHint } from "../../protocol/wire-types";
import { RegistrationError } from "../registration-error";
import { checkScopes } from "../scope-hierarchy";
import { SKILL_LIMITS } from "./skills-extension";

/**
 * One skill registered from code: its place in the skill namespace and its files. The last
 * segment of `path` is the skill's name, which its `SKILL.md` frontmatter must repeat.
 *
 * @example { path: "acme/refunds", files: { "SKILL.md": "---\nname: refunds\ndescription: ...\n---\n..." } }
 */
export interface SkillDefinition {
  /** Where the skill sits: "git-workflow", or "acme/billing/refunds" under an organisational prefix. */
  readonly path: string;
  /** Its files by path relative to the skill's folder: "SKILL.md" (required), "references/GUIDE.md", ... */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  /** OAuth scopes a caller needs to see it in lists, get it and read its files. */
  readonly scopes?: readonly string[];
}

/** Options of `skills()`: where the skills come from and how they are served. Give a folder, skills, or both. */
export interface SkillsOptions {
  /** A folder of skills: every folder below it that holds a `SKILL.md` is a skill (skills may nest). */
  readonly folder?: string;
  /** Organisational prefix of the folder's skills: `"acme"` serves `skill://acme/<skill>/...`. */
  readonly prefix?: string;
  /** Skills registered from code, or a function giving them (called when the app is built and by each `reload()`). */
  readonly skills?: readonly SkillDefinition[] | (() => readonly SkillDefinition[]);
  /** OAuth scopes a caller needs to see, get and read a folder's skill, by skill path (`"acme/refunds"`). */
  readonly scopes?: Readonly<Record<string, readonly string[]>>;
  /** Serve `resources/directory/read` (declared as `directoryRead: true`). Default true. */
  readonly directoryRead?: boolean;
  /** Cache hints of `skills/list`, `skills/get`, directory reads and skill files. Default: the app's `listCache`. */
  readonly cache?: ListCacheHint;
  /**
   * Per-skill limits: at most this many files and bytes (every file, `SKILL.md` included). Default
   * the specification's 512 files and 16 MiB; hosts may decline a larger skill.
   */
  readonly limits?: { readonly files?: number; readonly bytes?: number };
}

/** The options checked once, as the feature uses them. */
export interface SkillsSettings {
  readonly folder?: string;
  readonly prefix: readonly string[];
  readonly skills: () => readonly SkillDefinition[];
  readonly scopes: ReadonlyMap<string, readonly string[]>;
  readonly directoryRead: boolean;
  readonly cache?: ListCacheHint;
  readonly limits: { readonly files: number; readonly bytes: number };
}

/** Splits a `/`-separated relative path; undefined for an empty one or one with `.`, `..` or empty segments. */
export function relativeSegments(path: string): string[] | undefined {
  const segments = path.split("/");
  if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\") || s.includes("\0"))) return undefined;
  return segments;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RegistrationError(`skills: limits.${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Checks `skills()`'s options; every mistake is a RegistrationError naming the option and the fix. */
export function skillsSettings(options: SkillsOptions): SkillsSettings {
  if (typeof options !== "object" || options === null)
    throw new RegistrationError("skills: options must be an object ({ folder } or { skills })");
  const { folder, skills } = options;
  if (folder === undefined && skills === undefined)
    throw new RegistrationError('skills: give a folder of skills (skills({ folder: "./skills" })), skills registered from code, or both');
  if (folder !== undefined && (typeof folder !== "string" || folder === ""))
    throw new RegistrationError("skills: folder must be the path of a folder of skills");
  if (skills !== undefined && typeof skills !== "function" && !Array.isArray(skills))
    throw new RegistrationError("skills: skills must be an array of { path, files } or a function returning one");
  let prefix: string[] = [];
  if (options.prefix !== undefined) {
    const segments = typeof options.prefix === "string" ? relativeSegments(options.prefix) : undefined;
    if (segments === undefined)
      throw new RegistrationError(
        `skills: prefix must be a relative path such as "acme" or "acme/billing", got ${JSON.stringify(options.prefix)}`,
      );
    if (folder === undefined)
      throw new RegistrationError("skills: prefix applies to the folder's skills; give folder too, or put the prefix in each skill's path");
    prefix = segments;
  }
  const scopes = new Map<string, readonly string[]>();
  for (const [path, list] of Object.entries(options.scopes ?? {})) scopes.set(path, checkScopes(list, `skills: scopes["${path}"]`));
  const cache = options.cache;
  if (
    cache !== undefined &&
    (!Number.isSafeInteger(cache.ttlMs) || cache.ttlMs < 0 || (cache.cacheScope !== "public" && cache.cacheScope !== "private"))
  )
    throw new RegistrationError('skills: cache must be { ttlMs: a non-negative integer, cacheScope: "public" | "private" }');
  return {
    ...(folder !== undefined && { folder }),
    prefix,
    skills: typeof skills === "function" ? skills : () => skills ?? [],
    scopes,
    directoryRead: options.directoryRead ?? true,
    ...(cache !== undefined && { cache }),
    limits: {
      files: positive(options.limits?.files, SKILL_LIMITS.files, "files"),
      bytes: positive(options.limits?.bytes, SKILL_LIMITS.bytes, "bytes"),
    },
  };
}
