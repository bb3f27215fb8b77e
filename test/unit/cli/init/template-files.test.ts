// Pins the template app `roundtrip-mcp init` writes (src/cli/template/):
// - the base app's files, and each variant's files in place of the base's or beside them;
// - `gitignore` is written as .gitignore (npm never packs a .gitignore);
// - the app's package.json pins every library it shares with roundtrip-mcp and every build and
//   test tool to exactly this repository's version, and has the scripts the guides name.
import { readFileSync } from "node:fs";
import path from "node:path";
import { templateFiles, chosenVariants } from "../../../../src/cli/init/template-files";
import { templateDir } from "../../../../src/cli/package-root";

const repo = JSON.parse(readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe("templateFiles", () => {
  it("writes the base app, renaming gitignore", () => {
    const files = templateFiles([]).map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        ".gitignore",
        "README.md",
        "jest.config.js",
        "package.json",
        "src/app.ts",
        "src/main.ts",
        "src/ticket-desk.test.ts",
      ]),
    );
    expect(files).not.toContain("gitignore");
    expect(files.some((f) => f.startsWith("variants/"))).toBe(false);
  });

  it("takes a variant's files in place of the base's, and adds its own", () => {
    const files = templateFiles(["tasks", "oauth"]);
    const from = (p: string) => path.relative(templateDir(), files.find((f) => f.path === p)!.from);
    expect(from("src/extensions.ts")).toBe(path.join("variants", "tasks", "src", "extensions.ts"));
    expect(from("src/http-auth.ts")).toBe(path.join("variants", "oauth", "src", "http-auth.ts"));
    expect(from("src/app.ts")).toBe(path.join("src", "app.ts"));
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["src/ticket-report.ts", "src/ticket-report.test.ts", "src/http-auth.test.ts"]),
    );
    expect(chosenVariants({ tasks: false, oauth: true })).toEqual(["oauth"]);
  });

  it("pins the shared libraries and the tools to this repository's versions", () => {
    const app = JSON.parse(readFileSync(path.join(templateDir(), "package.json"), "utf8")) as typeof repo & {
      scripts: Record<string, string>;
    };
    for (const name of ["class-transformer", "class-validator", "reflect-metadata", "tsyringe"])
      expect(app.dependencies[name]).toBe(repo.dependencies[name]);
    for (const name of Object.keys(app.devDependencies)) expect(app.devDependencies[name]).toBe(repo.devDependencies[name]);
    expect(Object.keys(app.devDependencies).sort()).toEqual(["@types/jest", "@types/node", "jest", "ts-jest", "ts-node", "typescript"]);
    expect(app.scripts).toMatchObject({ test: "jest", dev: "roundtrip-mcp dev", inspect: "roundtrip-mcp inspect" });
  });
});
