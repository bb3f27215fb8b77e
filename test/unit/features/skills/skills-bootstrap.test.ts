// Pins every bootstrap refusal of the skills feature: McpApp.create() fails with a
// RegistrationError whose message names the offending file (or option) and the fix:
// - the frontmatter: no opening or closing "---", invalid YAML (with its line), not a mapping,
//   not UTF-8, a "__proto__" key, a value JSON cannot carry;
// - the rules: name pattern, name equal to the folder's (the last path segment), description
//   1-1024 characters, compatibility, metadata a map of strings, the reserved io.modelcontextprotocol/
//   metadata prefix;
// - the 512-file and 16 MiB limits (the specification's, by default), and `limits` raising them;
// - files the feature cannot serve: a symlink, a FIFO, a file that cannot be read, a SKILL.md at
//   the folder's root, a missing folder;
// - code skills: a bad path, no SKILL.md, a path taken by a folder skill; a scopes key naming no skill;
// - every problem is listed at once; warnings (a skill.md, shared names) do not fail the build.
import "reflect-metadata";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { McpApp, RegistrationError, skills, type SkillsOptions } from "../../../../src/index";
import { MemoryLogger } from "../../../../src/testing/index";
import { folderOf, manifest } from "../../../support/skill-folders";

function build(options: SkillsOptions, logger = new MemoryLogger()): McpApp {
  return McpApp.create({ components: [], state: { ephemeral: true }, logger, features: [skills(options)] });
}

/** The RegistrationError message McpApp.create() fails with. */
function refusal(options: SkillsOptions): string {
  try {
    build(options);
  } catch (error) {
    expect(error).toBeInstanceOf(RegistrationError);
    return (error as Error).message;
  }
  throw new Error("McpApp.create() built the app");
}

describe("skills() at bootstrap", () => {
  it("builds a valid folder, and warns (not fails) for a skill.md and for two skills sharing a name", () => {
    const folder = folderOf({
      "pdf/SKILL.md": manifest("pdf"),
      "acme/refunds/SKILL.md": manifest("refunds"),
      "other/refunds/SKILL.md": manifest("refunds"),
      "notes/skill.md": "lower case",
    });
    const logger = new MemoryLogger();
    build({ folder }, logger);
    const warnings = logger.entries.filter((e) => e.level === "warn").map((e) => e.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${path.join(folder, "notes/skill.md")}: did you mean SKILL.md?`),
        expect.stringContaining('"refunds" is the name of skill://acme/refunds/SKILL.md and skill://other/refunds/SKILL.md'),
      ]),
    );
  });

  it.each([
    ["no opening ---", "name: pdf\ndescription: x\n", 'line 1: SKILL.md must begin with a "---" line'],
    ["no closing ---", "---\nname: pdf\ndescription: x\n", 'the frontmatter has no closing "---" line'],
    [
      "invalid YAML",
      "---\nname: pdf\ndescription: [oops\n---\n",
      "line 4: invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]\n",
    ],
    ["a repeated key", "---\nname: pdf\nname: pdf\ndescription: x\n---\n", "invalid YAML frontmatter: Map keys must be unique"],
    ["not a mapping", "---\n- pdf\n---\n", "the frontmatter must be a YAML mapping"],
    ["a __proto__ key", "---\nname: pdf\ndescription: x\n__proto__: {}\n---\n", 'frontmatter has a "__proto__" key'],
    [
      "an infinite number",
      "---\nname: pdf\ndescription: x\nweight: .inf\n---\n",
      "frontmatter.weight is Infinity, which JSON cannot carry",
    ],
    ["no name", "---\ndescription: x\n---\n", 'the frontmatter needs a string "name"'],
    [
      "a name breaking the pattern",
      manifest("PDF--tools").replace("PDF--tools", "PDF--tools"),
      'frontmatter name "PDF--tools" must be 1-64 lowercase',
    ],
    [
      "a name other than the folder's",
      manifest("pdf-tools"),
      'frontmatter name "pdf-tools" must equal the last segment of the skill\'s path, "pdf"',
    ],
    ["no description", "---\nname: pdf\n---\n", 'needs a "description" of 1-1024 characters'],
    ["a description over 1024 characters", manifest("pdf", "x".repeat(1025)), 'needs a "description" of 1-1024 characters'],
    [
      "a long compatibility",
      manifest("pdf", "d", `compatibility: ${"c".repeat(501)}\n`),
      '"compatibility" must be a string of 1-500 characters',
    ],
    ["metadata that is not strings", manifest("pdf", "d", "metadata:\n  version: 2\n"), '"metadata" must map strings to strings'],
    [
      "a reserved metadata key",
      manifest("pdf", "d", 'metadata:\n  "io.modelcontextprotocol/origin": x\n'),
      'metadata key "io.modelcontextprotocol/origin" uses the prefix io.modelcontextprotocol/, which is reserved for MCP extensions',
    ],
  ])("refuses a SKILL.md with %s, naming the file", (_, text, expected) => {
    const folder = folderOf({ "pdf/SKILL.md": text });
    const message = refusal({ folder });
    expect(message).toContain(`${path.join(folder, "pdf/SKILL.md")}: `);
    expect(`${message}\n`).toContain(expected);
  });

  it("refuses a SKILL.md that is not UTF-8, naming it", () => {
    const folder = folderOf({ "pdf/SKILL.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]) });
    expect(refusal({ folder })).toContain(`${path.join(folder, "pdf/SKILL.md")}: SKILL.md is not valid UTF-8`);
  });

  it("refuses a skill of more than 512 files, naming its SKILL.md, and serves it once limits allow it", () => {
    const files: Record<string, string> = { "big/SKILL.md": manifest("big") };
    for (let i = 0; i < 512; i++) files[`big/parts/${i}.txt`] = String(i);
    const folder = folderOf(files);
    const message = refusal({ folder });
    expect(message).toContain(`${path.join(folder, "big/SKILL.md")}: the skill has 513 files and`);
    expect(message).toContain("over the limit of 512 files and 16777216 bytes");
    expect(() => build({ folder, limits: { files: 513 } })).not.toThrow();
  });

  it("refuses a skill of more than 16 MiB, naming its SKILL.md", () => {
    const folder = folderOf({ "big/SKILL.md": manifest("big"), "big/data.bin": Buffer.alloc(16 * 1024 * 1024) });
    const message = refusal({ folder });
    expect(message).toContain(
      `${path.join(folder, "big/SKILL.md")}: the skill has 2 files and ${16 * 1024 * 1024 + manifest("big").length} bytes`,
    );
    expect(message).toContain("raise skills({ limits })");
  });

  it("refuses a symlink and a FIFO inside a skill, naming each", () => {
    const folder = folderOf({ "pdf/SKILL.md": manifest("pdf"), "elsewhere.md": "x" });
    fs.symlinkSync(path.join(folder, "elsewhere.md"), path.join(folder, "pdf/link.md"));
    execFileSync("mkfifo", [path.join(folder, "pdf/pipe")]);
    const message = refusal({ folder });
    expect(message).toContain("2 problems");
    expect(message).toContain(`${path.join(folder, "pdf/link.md")}: is a symlink or special file, which skills do not serve`);
    expect(message).toContain(`${path.join(folder, "pdf/pipe")}: is a symlink or special file`);
  });

  it("refuses a file that cannot be read, naming it and the reason", () => {
    const folder = folderOf({ "pdf/SKILL.md": manifest("pdf"), "pdf/secret.md": "x" });
    const real = fs.readFileSync;
    const spy = jest.spyOn(fs, "readFileSync").mockImplementation(((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (String(file).endsWith("secret.md"))
        throw Object.assign(new Error("EACCES: permission denied, open 'secret.md'"), { code: "EACCES" });
      return (real as (...args: unknown[]) => unknown)(file, ...rest);
    }) as typeof fs.readFileSync);
    try {
      expect(refusal({ folder })).toContain(`${path.join(folder, "pdf/secret.md")}: cannot be read: EACCES: permission denied`);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses a SKILL.md at the folder's root and a folder that does not exist", () => {
    const folder = folderOf({ "SKILL.md": manifest("root") });
    expect(refusal({ folder })).toContain(
      `${path.join(folder, "SKILL.md")}: a SKILL.md at the root of the skills folder has no skill path`,
    );
    const missing = path.join(folder, "nowhere");
    expect(refusal({ folder: missing })).toContain(`${missing}: the skills folder cannot be read`);
  });

  it("refuses code skills with a bad path, without SKILL.md, or at a folder skill's path, naming each", () => {
    const folder = folderOf({ "pdf/SKILL.md": manifest("pdf") });
    const message = refusal({
      folder,
      skills: [
        { path: "../escape", files: { "SKILL.md": manifest("escape") } },
        { path: "notes", files: { "README.md": "x" } },
        { path: "pdf", files: { "SKILL.md": manifest("pdf") } },
        { path: "ok", files: { "SKILL.md": manifest("ok"), "/abs.md": "x" } },
      ],
    });
    expect(message).toContain('skills[0]: path must be a relative path such as "git-workflow" or "acme/refunds", got "../escape"');
    expect(message).toContain('skills[1] (notes): files has no "SKILL.md"');
    expect(message).toContain(
      `skills[2] (pdf) file "SKILL.md": the same skill file as ${path.join(folder, "pdf/SKILL.md")} (skill://pdf/SKILL.md)`,
    );
    expect(message).toContain('skills[3] (ok) file "/abs.md": a file path must be relative');
  });

  it("refuses a scopes key that names no skill, and options that are not options", () => {
    const folder = folderOf({ "pdf/SKILL.md": manifest("pdf") });
    expect(refusal({ folder, scopes: { pdfs: ["read"] } })).toContain('skills({ scopes }): "pdfs" names no skill');
    expect(() => skills({})).toThrow("skills: give a folder of skills");
    expect(() => skills({ folder, prefix: "../x" })).toThrow("skills: prefix must be a relative path");
    expect(() => skills({ folder, limits: { files: 0 } })).toThrow("skills: limits.files must be a positive integer, got 0");
    expect(() => skills({ folder, scopes: { pdf: ["has space"] } })).toThrow('skills: scopes["pdf"]: "has space" is not an OAuth scope');
  });

  it("lists every problem at once", () => {
    const folder = folderOf({ "a/SKILL.md": manifest("b"), "c/SKILL.md": "---\nname: c\n---\n" });
    const message = refusal({ folder });
    expect(message).toMatch(/^skills: 2 problems in the skills \(folder .*\):\n {2}.*a\/SKILL.md: .*\n {2}.*c\/SKILL.md: /);
  });
});
