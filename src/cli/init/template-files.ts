// The files of the app `roundtrip-mcp init` writes, chosen from the template (src/cli/template/):
// the base app, then each chosen variant's files (variants/<name>/ mirrors the base's layout) in
// place of the base's or beside them. They are real files: CI compiles and tests every combination.
import { readdirSync } from "node:fs";
import path from "node:path";
import { templateDir } from "../package-root";

/** What a user picks at the start. */
export interface InitChoices {
  /** What `npm start` serves: stdio (for a host that starts the server) or Streamable HTTP. */
  readonly transport: "stdio" | "http";
  /** The tasks extension, with a tool that may run as a task. */
  readonly tasks: boolean;
  /** HTTP callers authenticated as an OAuth 2.1 resource server. */
  readonly oauth: boolean;
}

export const VARIANT_NAMES = ["tasks", "oauth"] as const;
export type VariantName = (typeof VARIANT_NAMES)[number];

export interface TemplateFile {
  /** Where it goes in the app, with `/` separators. */
  readonly path: string;
  /** The template file it is copied from. */
  readonly from: string;
}

/** npm never packs a file named .gitignore, so the template keeps it as `gitignore`. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: ".gitignore" };

export function chosenVariants(choices: Pick<InitChoices, VariantName>): VariantName[] {
  return VARIANT_NAMES.filter((name) => choices[name]);
}

export function templateFiles(variants: readonly VariantName[], root: string = templateDir()): TemplateFile[] {
  const files = new Map<string, string>();
  const add = (dir: string, skip: string | undefined) => {
    for (const rel of filesUnder(dir, "")) if (rel.split("/")[0] !== skip) files.set(RENAMED[rel] ?? rel, path.join(dir, rel));
  };
  add(root, "variants");
  for (const name of variants) add(path.join(root, "variants", name), undefined);
  return [...files].sort(([a], [b]) => a.localeCompare(b)).map(([rel, from]) => ({ path: rel, from }));
}

function filesUnder(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix + entry.name;
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : filesUnder(path.join(dir, entry.name), `${rel}/`);
    return entry.isFile() ? [rel] : [];
  });
}
