// The app a command works on: the folder of the nearest package.json, its TypeScript (the app's
// own, as `tsc` would run it) and the tsconfig that builds an entry, with where that entry's
// JavaScript goes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type * as TypeScript from "typescript";
import { CliError } from "../cli-error";

export type TypeScriptModule = typeof TypeScript;

export interface AppProject {
  /** The folder of the app's package.json. */
  readonly root: string;
  readonly packageJson: { readonly name?: string; readonly version?: string; readonly main?: string };
}

export function findProject(cwd: string): AppProject {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) return { root: dir, packageJson: JSON.parse(readFileSync(file, "utf8")) as AppProject["packageJson"] };
    if (path.dirname(dir) === dir)
      throw new CliError(`no package.json in ${cwd} or above it: run this in your app's folder (roundtrip-mcp init writes one)`);
  }
}

/** The entry given, or the first of `defaults` the app has; an error naming them otherwise. */
export function resolveEntry(project: AppProject, cwd: string, given: string | undefined, defaults: readonly string[]): string {
  if (given !== undefined) {
    const file = path.resolve(cwd, given);
    if (!existsSync(file)) throw new CliError(`${given} does not exist (looked for ${file})`);
    return file;
  }
  for (const candidate of defaults) {
    const file = path.join(project.root, candidate);
    if (existsSync(file)) return file;
  }
  throw new CliError(`no ${defaults.join(" or ")} in ${project.root}: name the entry file, e.g. roundtrip-mcp <command> src/server.ts`);
}

/** The app's own typescript package. */
export function appTypeScript(project: AppProject): TypeScriptModule {
  let resolved: string;
  try {
    resolved = require.resolve("typescript", { paths: [project.root] });
  } catch {
    throw new CliError(`TypeScript is not installed in ${project.root}: npm install --save-dev --save-exact typescript@6.0.3`);
  }
  // The app's copy, found at run time: a dynamic require is the only way to load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module known only at run time
  return require(resolved) as TypeScriptModule;
}

export interface EntryBuild {
  readonly configFile: string;
  readonly parsed: TypeScript.ParsedCommandLine;
  /** Where the entry's JavaScript is written. */
  readonly output: string;
}

/**
 * The tsconfig that builds `entry` (tsconfig.build.json when the app has one that includes it,
 * else tsconfig.json) and where it writes the entry's JavaScript. Decorator metadata must be on:
 * without it, `McpApp.create` cannot see parameter types.
 */
export function entryBuild(ts: TypeScriptModule, project: AppProject, entry: string): EntryBuild {
  const candidates = ["tsconfig.build.json", "tsconfig.json"]
    .map((name) => path.join(project.root, name))
    .filter((file) => existsSync(file));
  if (candidates.length === 0)
    throw new CliError(`no tsconfig.json in ${project.root}: roundtrip-mcp init writes one (decorator metadata on)`);
  let firstError = "";
  for (const configFile of candidates) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          firstError ||= ts.flattenDiagnosticMessageText(d.messageText, "\n");
        },
      },
    );
    if (parsed === undefined) continue;
    const included = parsed.fileNames.map((f) => path.resolve(f));
    if (!included.includes(path.resolve(entry))) continue;
    const { experimentalDecorators, emitDecoratorMetadata } = parsed.options;
    if (!experimentalDecorators || !emitDecoratorMetadata)
      throw new CliError(
        `${path.basename(configFile)} must set "experimentalDecorators": true and "emitDecoratorMetadata": true (the decorators and their parameter types need them)`,
      );
    const outputs = ts.getOutputFileNames(parsed, entry, !ts.sys.useCaseSensitiveFileNames);
    const output = outputs.find((file) => /\.(c|m)?js$/.test(file));
    if (output === undefined) throw new CliError(`${path.basename(configFile)} emits no JavaScript for ${entry} (is noEmit set?)`);
    return { configFile, parsed, output };
  }
  throw new CliError(
    firstError ||
      `no tsconfig of ${project.root} (${candidates.map((c) => path.basename(c)).join(", ")}) includes ${path.relative(project.root, entry)}`,
  );
}
