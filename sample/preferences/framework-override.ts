// A preload hook that points `roundtrip-mcp` at another compiled build of the framework, so the
// demo can check that build with this sample:
//
//   ROUNDTRIP_MCP_DIST=/path/to/other/checkout/dist/src npm run demo -- --check
//   ROUNDTRIP_MCP_DIST=/path/to/dist/src node --require ./dist/sample/preferences/framework-override.js dist/sample/preferences/main-http.js
//
// The demo passes `--require` to its server children only when the variable is set; unset, the
// hook does nothing and `roundtrip-mcp` resolves to this checkout's dist/src through the package's
// "exports" self-reference. Bare imports made by the sample or the selected build (class-validator,
// tsyringe, reflect-metadata, ...) resolve next to the selected build first, so the sample's
// decorators and the framework share one copy of each decorator library; then as usual; then from
// this checkout. Packages inside node_modules keep their own resolution.
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";

export const FRAMEWORK_DIST_VARIABLE = "ROUNDTRIP_MCP_DIST";

interface ParentModule {
  filename?: string | null;
}
type ResolveFilename = (request: string, parent: ParentModule | undefined, isMain: boolean, options?: unknown) => string;
interface ModuleInternals {
  _resolveFilename: ResolveFilename;
  _nodeModulePaths(from: string): string[];
}

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

function anchorAt(directory: string, internals: ModuleInternals): ParentModule & { id: string; paths: string[] } {
  const filename = path.join(directory, "index.js");
  return { id: filename, filename, paths: internals._nodeModulePaths(directory) };
}

function isBare(request: string): boolean {
  return !request.startsWith(".") && !path.isAbsolute(request) && !Module.isBuiltin(request);
}

function install(selected: string): void {
  const directory = path.resolve(selected);
  const entry = path.join(directory, "index.js");
  if (!fs.existsSync(entry)) {
    throw new Error(
      `${FRAMEWORK_DIST_VARIABLE}=${selected}: no index.js there; point it at a compiled roundtrip-mcp build (a checkout's dist/src)`,
    );
  }
  const internals = Module as unknown as ModuleInternals;
  const original = internals._resolveFilename;
  const selectedAnchor = anchorAt(directory, internals);
  const checkoutAnchor = anchorAt(path.resolve(__dirname, "../../.."), internals);

  internals._resolveFilename = function resolveFilename(this: unknown, request, parent, isMain, options) {
    if (request === "roundtrip-mcp") return entry;
    if (request.startsWith("roundtrip-mcp/"))
      return original.call(this, path.join(directory, request.slice("roundtrip-mcp/".length)), parent, isMain, options);
    const fromPackage = parent?.filename?.includes(NODE_MODULES) ?? false;
    if (!isBare(request) || fromPackage) return original.call(this, request, parent, isMain, options);
    let lastError: unknown;
    for (const from of [selectedAnchor, parent, checkoutAnchor]) {
      try {
        return original.call(this, request, from, isMain, options);
      } catch (error) {
        if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
        lastError = error;
      }
    }
    throw lastError;
  };
  // stderr: stdout is the MCP channel of a stdio server. The demo checks for this line.
  process.stderr.write(`roundtrip-mcp: using the build at ${directory}\n`);
}

const selected = process.env[FRAMEWORK_DIST_VARIABLE];
if (selected !== undefined && selected !== "") install(selected);
