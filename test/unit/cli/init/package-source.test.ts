// Pins where `init` finds how its copy of roundtrip-mcp was obtained: the lockfile of the folder
// that installed it (npx's cache folder too): a tarball (relative to that folder), a git URL, the
// registry (a version); --from: a tarball, a checkout, a spec; a checkout when nothing recorded it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { packageSource, recordedResolution } from "../../../../src/cli/init/package-source";

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), "source-test-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function installedWith(entry: object | undefined): string {
  const root = path.join(dir, "node_modules", "roundtrip-mcp");
  mkdirSync(root, { recursive: true });
  if (entry !== undefined)
    writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ packages: { "node_modules/roundtrip-mcp": entry } }));
  return root;
}

describe("recordedResolution", () => {
  it("reads a tarball, relative to the installing folder", () => {
    expect(recordedResolution(installedWith({ version: "0.1.0", resolved: "file:../x/roundtrip-mcp-0.1.0.tgz" }))).toEqual({
      kind: "tarball",
      file: path.resolve(dir, "../x/roundtrip-mcp-0.1.0.tgz"),
    });
  });

  it("reads a git URL and a registry version", () => {
    expect(recordedResolution(installedWith({ resolved: "git+https://example.com/r.git#abc123" }))).toEqual({
      kind: "spec",
      spec: "git+https://example.com/r.git#abc123",
    });
    expect(
      recordedResolution(
        installedWith({ version: "0.4.0", resolved: "https://registry.npmjs.org/roundtrip-mcp/-/roundtrip-mcp-0.4.0.tgz" }),
      ),
    ).toEqual({
      kind: "spec",
      spec: "0.4.0",
    });
    expect(recordedResolution(installedWith({ version: "0.5.0" }))).toEqual({ kind: "spec", spec: "0.5.0" });
  });

  it("finds nothing outside node_modules or without a lockfile entry", () => {
    expect(recordedResolution(installedWith(undefined))).toBeUndefined();
    expect(recordedResolution(dir)).toBeUndefined();
  });
});

describe("packageSource", () => {
  it("takes --from as a tarball, a checkout or a spec", () => {
    expect(packageSource("./a/roundtrip-mcp-1.0.0.tgz", dir)).toEqual({
      kind: "tarball",
      file: path.join(dir, "a", "roundtrip-mcp-1.0.0.tgz"),
    });
    writeFileSync(path.join(dir, "package.json"), "{}");
    expect(packageSource(".", dir)).toEqual({ kind: "checkout", root: dir });
    expect(packageSource("git+https://example.com/r.git#abc", dir)).toEqual({ kind: "spec", spec: "git+https://example.com/r.git#abc" });
  });

  it("sees this checkout as a checkout when nothing recorded an install", () => {
    expect(packageSource(undefined, dir)).toEqual({ kind: "checkout", root: path.resolve(__dirname, "../../../..") });
  });
});
