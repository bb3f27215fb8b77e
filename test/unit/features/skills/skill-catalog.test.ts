// Pins the catalog the skills feature compiles at bootstrap:
// - every entry equals the one the official SDK's own skills catalog (SkillCatalog.load over
//   nodeSkillFiles, strict) builds from the same folder: URIs (percent-encoded names included),
//   verbatim frontmatter, every file with its sha256 digest and size, in URI order, nested skills
//   listed flat with the enclosing skill's resources holding their files, an organisational prefix;
// - SKILL.md resources as resources/list lists them (name, description, text/markdown, size);
// - directories: the direct children of each, folders as inode/directory, only inside skills;
// - each file's owner is the innermost skill holding it (whose scopes guard it);
// - code skills join the folder's in one namespace.
import "reflect-metadata";
import path from "node:path";
import { SkillCatalog } from "@modelcontextprotocol/server/ext/skills";
import { nodeSkillFiles } from "@modelcontextprotocol/server/ext/skills/node";
import { buildCatalog } from "../../../../src/features/skills/skill-catalog";
import { sourceFiles } from "../../../../src/features/skills/skill-sources";
import { skillsSettings, type SkillsOptions } from "../../../../src/features/skills/skills-options";
import { folderOf, manifest } from "../../../support/skill-folders";

const CONFORMANCE_SKILLS = path.join(__dirname, "../../../../sample/conformance/skills");
function catalogOf(options: SkillsOptions) {
  const problems: string[] = [];
  const settings = skillsSettings(options);
  const catalog = buildCatalog(sourceFiles(settings), settings.limits, problems);
  expect(problems).toEqual([]);
  return catalog;
}

const NESTED = {
  "guides/SKILL.md": manifest("guides", undefined, "license: MIT\nmetadata:\n  version: '1.0'\n"),
  "guides/Read Me.md": "spaces",
  "guides/notes/été.md": "accents",
  "guides/notes/100%.txt": "percent",
  "guides/writing/SKILL.md": manifest("writing"),
  "guides/writing/examples/a.md": "a",
  "tools/grep/SKILL.md": manifest("grep"),
  "tools/README.md": "outside every skill",
};

describe("buildCatalog", () => {
  it.each([
    ["the conformance sample's skills", () => ({ folder: CONFORMANCE_SKILLS }), undefined],
    ["nested skills and names that need percent-encoding", () => ({ folder: folderOf(NESTED) }), undefined],
    ["a folder under an organisational prefix", () => ({ folder: folderOf(NESTED), prefix: "acme/internal" }), "acme/internal"],
  ])("builds the entries the SDK's own catalog builds from %s", async (_, options, prefix) => {
    const given = options();
    const ours = catalogOf(given).skills.map((s) => s.entry);
    const sdk = await SkillCatalog.load(nodeSkillFiles(given.folder), { strict: true, onWarning: () => {}, ...(prefix && { prefix }) });
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(sdk.entries)));
    expect(ours.length).toBeGreaterThan(0);
  });

  it("lists nested skills flat, the enclosing skill's resources holding theirs, each file owned by its innermost skill", () => {
    const catalog = catalogOf({ folder: folderOf(NESTED) });
    expect(catalog.skills.map((s) => s.uri)).toEqual([
      "skill://guides/SKILL.md",
      "skill://guides/writing/SKILL.md",
      "skill://tools/grep/SKILL.md",
    ]);
    const guides = catalog.byUri.get("skill://guides/SKILL.md")!;
    expect((guides.entry.resources as { uri: string }[]).map((r) => r.uri)).toEqual([
      "skill://guides/Read%20Me.md",
      "skill://guides/SKILL.md",
      "skill://guides/notes/%C3%A9t%C3%A9.md",
      "skill://guides/notes/100%25.txt",
      "skill://guides/writing/SKILL.md",
      "skill://guides/writing/examples/a.md",
    ]);
    expect(guides.listed).toEqual({
      uri: "skill://guides/SKILL.md",
      name: "guides",
      description: "The guides skill, what it does and when to use it.",
      mimeType: "text/markdown",
      size: Buffer.byteLength(NESTED["guides/SKILL.md"]),
    });
    expect(catalog.files.get("skill://guides/writing/examples/a.md")!.owner.path).toBe("guides/writing");
    expect(catalog.files.get("skill://guides/notes/100%25.txt")!.owner.path).toBe("guides");
    expect(catalog.files.has("skill://tools/README.md")).toBe(false);
    expect(Object.isFrozen(guides.entry) && Object.isFrozen(guides.entry.frontmatter)).toBe(true);
  });

  it("lists each directory's direct children, folders as inode/directory, and no directory outside the skills", () => {
    const catalog = catalogOf({ folder: folderOf(NESTED) });
    expect(catalog.dirs.get("skill://guides")!.children).toEqual([
      { uri: "skill://guides/Read%20Me.md", name: "Read Me.md", mimeType: "text/markdown", size: 6 },
      { uri: "skill://guides/SKILL.md", name: "SKILL.md", mimeType: "text/markdown", size: Buffer.byteLength(NESTED["guides/SKILL.md"]) },
      { uri: "skill://guides/notes", name: "notes", mimeType: "inode/directory" },
      { uri: "skill://guides/writing", name: "writing", mimeType: "inode/directory" },
    ]);
    expect(catalog.dirs.get("skill://guides/writing")!.owner.path).toBe("guides/writing");
    expect(catalog.dirs.get("skill://guides/notes")!.owner.path).toBe("guides");
    expect(catalog.dirs.has("skill://tools")).toBe(false);
    expect([...catalog.dirs.keys()].sort()).toEqual([
      "skill://guides",
      "skill://guides/notes",
      "skill://guides/writing",
      "skill://guides/writing/examples",
      "skill://tools/grep",
    ]);
  });

  it("serves code skills beside the folder's, with their scopes", () => {
    const catalog = catalogOf({
      folder: folderOf({ "pdf/SKILL.md": manifest("pdf") }),
      skills: () => [
        { path: "team/review", files: { "SKILL.md": manifest("review"), "checklist.md": "- tests" }, scopes: ["review:read"] },
      ],
      scopes: { pdf: ["pdf:read"] },
    });
    expect(catalog.skills.map((s) => [s.uri, s.scopes])).toEqual([
      ["skill://pdf/SKILL.md", ["pdf:read"]],
      ["skill://team/review/SKILL.md", ["review:read"]],
    ]);
    expect(catalog.files.get("skill://team/review/checklist.md")).toMatchObject({ size: 7, mimeType: "text/markdown" });
  });
});
