// Pins, without installing anything, what the consumer smoke test (npm run test:consumer) relies
// on and what a new user copies:
// - docs/getting-started.md writes out a whole app: package.json, tsconfig.json, jest.config.js
//   and its three source files, each once
// - the app's package.json installs the tarball `npm pack` writes, and pins every library it
//   shares with roundtrip-mcp, and every build and test tool, to exactly this repository's version
//   (TypeScript 6.0, not 7)
// - its tsconfig emits CommonJS into an outDir with decorator metadata, for the app and its tests
// - the README's "Use it in your app" commands name the same packages at the same versions
// - the app's package.json names no database driver and needs no allowScripts: roundtrip-mcp's
//   drivers are optional peer dependencies (kept as this repository's pinned devDependencies)
// - the guide's ES-module app: "type": "module", the same pinned libraries and tarball, a
//   tsconfig on nodenext with an explicit rootDir, its check script, and the CommonJS app's
//   src/greeter.ts unchanged
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT, packedTarballName, readGuideApp } from "../../support/guide-app";

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const repo = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Required<PackageJson>;
const files = readGuideApp();
const text = (file: string) => files.find((f) => f.path === file)!.text;
const app = JSON.parse(text("package.json")) as Required<PackageJson>;
const RUNTIME = ["class-transformer", "class-validator", "reflect-metadata", "tsyringe"];
const TOOLS = ["@types/jest", "@types/node", "jest", "ts-jest", "typescript"];

/** `name@version` tokens of the sh blocks in the README's "Use it in your app" section. */
function readmeInstalls(): Record<string, string> {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Use it in your app"),
    readme.indexOf("\n## ", readme.indexOf("## Use it in your app") + 1),
  );
  const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
  return Object.fromEntries([...commands.matchAll(/(?:^|\s)(@?[a-z0-9][\w./-]*)@(\d[\w.-]*)/g)].map((m) => [m[1], m[2]]));
}

describe("the getting-started app", () => {
  it("is written out whole by the guide, each file once", () => {
    expect(files.map((f) => f.path).sort()).toEqual([
      "jest.config.js",
      "package.json",
      "src/greeter.test.ts",
      "src/greeter.ts",
      "src/main.ts",
      "tsconfig.json",
    ]);
  });

  it("installs the packed tarball and exactly the versions this package uses", () => {
    expect(app.dependencies["roundtrip-mcp"]).toBe(`file:${packedTarballName()}`);
    expect(Object.keys(app.dependencies).sort()).toEqual([...RUNTIME, "roundtrip-mcp"].sort());
    for (const name of RUNTIME) expect([name, app.dependencies[name]]).toEqual([name, repo.dependencies[name]]);
    expect(Object.keys(app.devDependencies).sort()).toEqual(TOOLS);
    for (const name of TOOLS) expect([name, app.devDependencies[name]]).toEqual([name, repo.devDependencies[name]]);
    expect(app.devDependencies.typescript).toMatch(/^6\.0\.\d+$/);
    expect(app.scripts).toEqual({ build: "tsc", start: "node dist/main.js", test: "jest" });
  });

  it("compiles to CommonJS in an outDir, with decorator metadata and types for the app and its tests", () => {
    const { compilerOptions } = JSON.parse(text("tsconfig.json")) as { compilerOptions: Record<string, unknown> };
    expect(compilerOptions).toMatchObject({
      module: "commonjs",
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      outDir: "dist",
    });
    expect(compilerOptions.types).toEqual(["node", "jest"]);
    expect(text("jest.config.js")).toContain('setupFiles: ["reflect-metadata"]');
  });

  it("installs no database driver, which roundtrip-mcp keeps as optional peers", () => {
    const pkg = repo as Required<PackageJson> & {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const driver of ["better-sqlite3", "pg"]) {
      expect(pkg.dependencies[driver]).toBeUndefined();
      expect(pkg.peerDependencies[driver]).toBe(`^${pkg.devDependencies[driver]}`);
      expect(pkg.peerDependenciesMeta[driver]).toEqual({ optional: true });
    }
    expect(pkg.dependencies["@types/pg"]).toBeUndefined();
    expect(Object.keys(app.dependencies)).not.toContain("better-sqlite3");
    expect((app as { allowScripts?: unknown }).allowScripts).toBeUndefined();
  });

  it("has an ES-module twin on nodenext with an explicit rootDir", () => {
    const esm = readGuideApp("esm");
    expect(esm.map((f) => f.path).sort()).toEqual(["package.json", "src/check.ts", "src/greeter.ts", "tsconfig.json"]);
    const esmText = (file: string) => esm.find((f) => f.path === file)!.text;
    const esmApp = JSON.parse(esmText("package.json")) as Required<PackageJson> & { type: string };
    expect(esmApp.type).toBe("module");
    expect(esmApp.dependencies).toEqual(app.dependencies);
    expect(esmApp.devDependencies).toEqual({
      "@types/node": repo.devDependencies["@types/node"],
      typescript: repo.devDependencies.typescript,
    });
    expect(esmApp.scripts).toEqual({ build: "tsc", check: "node dist/check.js" });
    const { compilerOptions } = JSON.parse(esmText("tsconfig.json")) as { compilerOptions: Record<string, unknown> };
    expect(compilerOptions).toMatchObject({
      module: "nodenext",
      moduleResolution: "nodenext",
      rootDir: "src",
      outDir: "dist",
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
    });
    expect(esmText("src/greeter.ts")).toBe(text("src/greeter.ts"));
    expect(esmText("src/check.ts")).toContain('from "./greeter.js"');
  });

  it("matches the README's install commands", () => {
    const installs = readmeInstalls();
    expect(Object.keys(installs).sort()).toEqual([...RUNTIME, ...TOOLS].sort());
    for (const name of RUNTIME) expect([name, installs[name]]).toEqual([name, repo.dependencies[name]]);
    for (const name of TOOLS) expect([name, installs[name]]).toEqual([name, repo.devDependencies[name]]);
  });
});
