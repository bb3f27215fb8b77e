// Writes the app into its folder: the template's files as they are, but package.json (the app's
// name, how it depends on roundtrip-mcp, what `npm start` serves) and the README's name.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";
import type { PackageSource } from "./package-source";
import { chosenVariants, templateFiles, type InitChoices } from "./template-files";

/** The template's package name, replaced by the app's in package.json and the README. */
const TEMPLATE_NAME = "roundtrip-app";

export interface AppPlan extends InitChoices {
  readonly dir: string;
  readonly name: string;
  readonly source: PackageSource;
}

/** Entries a folder may hold and still count as empty. */
const HARMLESS = new Set([".git"]);

export function checkTarget(dir: string, force: boolean): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir).filter((name) => !HARMLESS.has(name));
  if (entries.length > 0 && !force)
    throw new CliError(
      `${dir} is not empty (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", ..." : ""}): name a new folder, or pass --force to write the app's files among these (files of the same name are replaced)`,
    );
}

/** Writes every file; returns their paths, relative to the app. */
export function writeApp(plan: AppPlan): string[] {
  mkdirSync(plan.dir, { recursive: true });
  const dependency = dependencySpec(plan);
  const written: string[] = [];
  for (const file of templateFiles(chosenVariants(plan))) {
    const target = path.join(plan.dir, ...file.path.split("/"));
    mkdirSync(path.dirname(target), { recursive: true });
    if (file.path === "package.json") writeFileSync(target, packageJson(readFileSync(file.from, "utf8"), plan, dependency));
    else if (file.path === "README.md") writeFileSync(target, readFileSync(file.from, "utf8").replaceAll(TEMPLATE_NAME, plan.name));
    else copyFileSync(file.from, target);
    written.push(file.path);
  }
  return written;
}

function packageJson(text: string, plan: AppPlan, dependency: string): string {
  const pkg = JSON.parse(text) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string> };
  pkg.name = plan.name;
  pkg.dependencies["roundtrip-mcp"] = dependency;
  pkg.scripts.start = `node dist/main.js --${plan.transport}`;
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The app's dependency on roundtrip-mcp; a tarball is copied (or a checkout packed) into the app first. */
function dependencySpec(plan: AppPlan): string {
  const source = plan.source;
  if (source.kind === "spec") return source.spec;
  if (source.kind === "tarball") {
    if (!existsSync(source.file))
      throw new CliError(`the roundtrip-mcp tarball ${source.file} does not exist: pass --from with the path of the packed package`);
    const name = path.basename(source.file);
    if (path.resolve(path.dirname(source.file)) !== path.resolve(plan.dir)) copyFileSync(source.file, path.join(plan.dir, name));
    return `file:${name}`;
  }
  // A checkout: pack it (its prepare script builds it), as a user would before installing it.
  const packed = spawnSync("npm", ["pack", "--silent", "--pack-destination", plan.dir], { cwd: source.root, encoding: "utf8" });
  const name = packed.stdout?.trim().split("\n").pop();
  if (packed.status !== 0 || !name)
    throw new CliError(
      `npm pack in ${source.root} failed (exit ${packed.status}): ${packed.stderr?.trim()}; pack it yourself and pass --from <tarball>`,
    );
  return `file:${name}`;
}
