// How this copy of roundtrip-mcp was obtained, so that a new app depends on it the same way: the
// packed tarball (`npx --package ./roundtrip-mcp-0.1.0.tgz roundtrip-mcp init`), a git URL, or the
// registry. npm records it in the lockfile of the folder that installed it (npx's cache folder
// too): `packages["node_modules/roundtrip-mcp"].resolved`.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ownPackage } from "../package-root";

export type PackageSource =
  /** A tarball: copied beside the app's package.json and depended on as `file:<name>`. */
  | { readonly kind: "tarball"; readonly file: string }
  /** A git URL or another spec npm understands, used as it is. */
  | { readonly kind: "spec"; readonly spec: string }
  /** A checkout of roundtrip-mcp (no install recorded it): packed into the app with `npm pack`. */
  | { readonly kind: "checkout"; readonly root: string };

/** Where this copy came from; `from` (the `--from` option) overrides it. */
export function packageSource(from?: string, cwd: string = process.cwd()): PackageSource {
  if (from !== undefined) return sourceOf(from, cwd);
  const own = ownPackage();
  const recorded = recordedResolution(own.root);
  if (recorded !== undefined) return recorded;
  if (existsSync(path.join(own.root, "src", "index.ts"))) return { kind: "checkout", root: own.root };
  return { kind: "spec", spec: own.version };
}

/** `--from`: a tarball path, a folder holding a checkout, or any spec for npm (version, git URL). */
function sourceOf(from: string, cwd: string): PackageSource {
  const local = path.resolve(cwd, from.replace(/^file:/, ""));
  if (/\.(tgz|tar\.gz)$/.test(from)) return { kind: "tarball", file: local };
  if (existsSync(path.join(local, "package.json"))) return { kind: "checkout", root: local };
  return { kind: "spec", spec: from };
}

/** The resolution npm recorded for the node_modules/roundtrip-mcp this copy lives in, if any. */
export function recordedResolution(root: string): PackageSource | undefined {
  if (path.basename(root) !== "roundtrip-mcp" || path.basename(path.dirname(root)) !== "node_modules") return undefined;
  const installRoot = path.dirname(path.dirname(root));
  for (const lockName of ["package-lock.json", path.join("node_modules", ".package-lock.json")]) {
    const lockFile = path.join(installRoot, lockName);
    if (!existsSync(lockFile)) continue;
    const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { packages?: Record<string, { resolved?: string; version?: string }> };
    const entry = lock.packages?.["node_modules/roundtrip-mcp"];
    if (entry === undefined) continue;
    const resolved = entry.resolved;
    if (resolved === undefined || /^https?:\/\/[^/]+\/roundtrip-mcp\/-\//.test(resolved))
      return { kind: "spec", spec: entry.version ?? ownPackage().version };
    if (resolved.startsWith("file:")) {
      const file = path.resolve(installRoot, resolved.slice("file:".length));
      return /\.(tgz|tar\.gz)$/.test(file) ? { kind: "tarball", file } : { kind: "checkout", root: file };
    }
    return { kind: "spec", spec: resolved };
  }
  return undefined;
}
