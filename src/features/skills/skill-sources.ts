import { constants, readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { relativeSegments, type SkillDefinition, type SkillsSettings } from "./skills-options";
import { SKILL_MANIFEST } from "./skills-extension";

/** One file of the skill namespace, as found at bootstrap: where it sits, its bytes then, and how to read it again. */
export interface FileInput {
  /** Its path in the skill namespace (the prefix included). */
  readonly segments: readonly string[];
  /** Names it in messages: the file on disk, or the code skill and file. */
  readonly origin: string;
  readonly bytes: Uint8Array;
  /** Its bytes when a client reads it (a folder's file is read again from disk; a code skill's is kept). */
  read(): Promise<Uint8Array>;
}

/** What the sources hold, and what is wrong with them (each problem names its file). */
export interface SourceFiles {
  readonly files: FileInput[];
  readonly problems: string[];
  readonly warnings: string[];
  /** Skill folders' scopes by namespace path (code skills' and the `scopes` option's). */
  readonly scopes: Map<string, readonly string[]>;
}

const NOT_FOLLOWED = "is a symlink or special file, which skills do not serve (a skill is regular files only): copy the file in instead";

/** Every file the folder and the code skills hold, found synchronously (the app is being built). */
export function sourceFiles(settings: SkillsSettings): SourceFiles {
  const out: SourceFiles = { files: [], problems: [], warnings: [], scopes: new Map(settings.scopes) };
  if (settings.folder !== undefined) folderFiles(settings.folder, settings.prefix, out);
  let defined: readonly SkillDefinition[];
  try {
    defined = settings.skills();
  } catch (error) {
    out.problems.push(`skills(): the skills function threw: ${error instanceof Error ? error.message : String(error)}`);
    return out;
  }
  if (!Array.isArray(defined)) out.problems.push("skills(): the skills function must return an array of { path, files }");
  else defined.forEach((skill, index) => codeFiles(skill, index, out));
  return out;
}

function folderFiles(folder: string, prefix: readonly string[], out: SourceFiles): void {
  const root = path.resolve(folder);
  try {
    if (!statSync(root).isDirectory()) return void out.problems.push(`${root}: the skills folder is not a folder`);
  } catch (error) {
    return void out.problems.push(`${root}: the skills folder cannot be read: ${messageOf(error)}`);
  }
  const entries: { rel: string; kind: "file" | "dir" | "special" }[] = [];
  const visit = (rel: string): void => {
    let listed: Dirent[];
    try {
      listed = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch (error) {
      return void out.problems.push(`${path.join(root, rel)}: cannot be listed: ${messageOf(error)}`);
    }
    listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of listed) {
      if (entry.name.startsWith(".")) continue;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const kind = entry.isFile() ? "file" : entry.isDirectory() ? "dir" : "special";
      entries.push({ rel: child, kind });
      if (kind === "dir") visit(child);
    }
  };
  visit("");
  const skillDirs = new Set(
    entries.filter((e) => e.kind !== "dir" && path.posix.basename(e.rel) === SKILL_MANIFEST).map((e) => path.posix.dirname(e.rel)),
  );
  if (skillDirs.delete("."))
    out.problems.push(
      `${path.join(root, SKILL_MANIFEST)}: a SKILL.md at the root of the skills folder has no skill path; put it in a folder named after the skill`,
    );
  const inSkill = (rel: string) => {
    for (let dir = path.posix.dirname(rel); dir !== "."; dir = path.posix.dirname(dir)) if (skillDirs.has(dir)) return true;
    return false;
  };
  for (const entry of entries) {
    const full = path.join(root, entry.rel);
    const base = path.posix.basename(entry.rel);
    if (entry.kind === "file" && base !== SKILL_MANIFEST && base.toLowerCase() === "skill.md")
      out.warnings.push(`${full}: did you mean SKILL.md? The name is case-sensitive; this folder is not a skill unless it has a SKILL.md`);
    if (!inSkill(entry.rel)) {
      if (entry.kind === "special" && base === SKILL_MANIFEST) out.problems.push(`${full}: ${NOT_FOLLOWED}`);
      continue;
    }
    if (entry.kind === "special") {
      out.problems.push(`${full}: ${NOT_FOLLOWED}`);
      continue;
    }
    if (entry.kind !== "file") continue;
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(full);
    } catch (error) {
      out.problems.push(`${full}: cannot be read: ${messageOf(error)}`);
      continue;
    }
    out.files.push({ segments: [...prefix, ...entry.rel.split("/")], origin: full, bytes, read: () => readRegularFile(full) });
  }
}

/** A folder's file read again: a regular file only, never through a symlink put in its place since. */
async function readRegularFile(full: string): Promise<Uint8Array> {
  const handle = await open(full, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${full} is no longer a regular file`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function codeFiles(skill: SkillDefinition, index: number, out: SourceFiles): void {
  const label = `skills[${index}]`;
  if (typeof skill !== "object" || skill === null) return void out.problems.push(`${label}: expected { path, files }`);
  const at = relativeSegments(typeof skill.path === "string" ? skill.path : "");
  if (at === undefined)
    return void out.problems.push(
      `${label}: path must be a relative path such as "git-workflow" or "acme/refunds", got ${JSON.stringify(skill.path)}`,
    );
  const where = `${label} (${at.join("/")})`;
  if (typeof skill.files !== "object" || skill.files === null)
    return void out.problems.push(`${where}: files must map file paths to contents`);
  if (!Object.hasOwn(skill.files, SKILL_MANIFEST))
    out.problems.push(`${where}: files has no "SKILL.md"; every skill needs one at its root`);
  if (skill.scopes !== undefined) out.scopes.set(at.join("/"), skill.scopes);
  for (const [file, content] of Object.entries(skill.files)) {
    const segments = relativeSegments(file);
    const origin = `${where} file "${file}"`;
    if (segments === undefined) {
      out.problems.push(`${origin}: a file path must be relative, "/"-separated, without "." or ".." segments`);
      continue;
    }
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      out.problems.push(`${origin}: contents must be a string or a Uint8Array`);
      continue;
    }
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : Uint8Array.from(content);
    out.files.push({ segments: [...at, ...segments], origin, bytes, read: async () => bytes });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
