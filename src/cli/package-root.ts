// Where this copy of roundtrip-mcp is: the folder of its package.json. The command runs from
// dist/src/cli/ once built and from src/cli/ under ts-jest, so it is found by walking up.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface OwnPackage {
  readonly root: string;
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

let own: OwnPackage | undefined;

export function ownPackage(): OwnPackage {
  if (own !== undefined) return own;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as Partial<OwnPackage>;
      if (pkg.name === "roundtrip-mcp")
        return (own = {
          root: dir,
          name: pkg.name,
          version: pkg.version ?? "0.0.0",
          dependencies: pkg.dependencies ?? {},
          devDependencies: pkg.devDependencies ?? {},
        });
    }
    if (path.dirname(dir) === dir) throw new Error(`roundtrip-mcp: no package.json of roundtrip-mcp above ${__dirname}`);
  }
}

/** The template app `init` writes: shipped as sources (package.json "files"). */
export function templateDir(): string {
  return path.join(ownPackage().root, "src", "cli", "template");
}
