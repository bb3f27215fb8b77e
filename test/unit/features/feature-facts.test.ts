// Pins what the apps and skills features add to McpApp.describe(), and the general mechanism:
// - a feature's describeFeature() is under featureFacts by the feature's name; a feature that
//   says nothing (undefined), and the built-in features, are left out;
// - apps (CompiledFeature.describe): a linked tool's view and visibility (both audiences written
//   out by default; a visibility without a view); each view's HTML source (a file read once, with
//   its absolute path and bytes; text given inline, with its bytes; a method run on every read),
//   its CSP and permissions (written out when empty), domain and border when declared, and the
//   tools linked to it;
// - skills (describeFeature): the folder (absolute) and prefix, directoryRead, and each skill
//   served, in URI order: name, path, SKILL.md URI, description, scopes, file count and bytes
//   (every file below it, a nested skill's included) and where its SKILL.md comes from (the file
//   on disk, or the code skill); after reload(), the catalog served now.
import "reflect-metadata";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { McpApp, Tool, View, apps, skills, type FeatureModule } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";
import { folderOf, manifest } from "../../support/skill-folders";

const describeApp = (components: Function[], features: FeatureModule[]) => {
  const app = McpApp.create({ components, features, state: { ephemeral: true }, logger: new SilentLogger() });
  const description = app.describe();
  void app.close();
  return description;
};

describe("McpApp.describe(): what features say of themselves", () => {
  it("puts a feature's describeFeature() under its name, and leaves out features that say nothing", () => {
    const saying: FeatureModule = {
      name: "acme/audit",
      compile: () => ({ methods: [], capabilities: () => ({}), describeFeature: () => ({ sink: "stdout", events: ["call"] }) }),
    };
    const silent: FeatureModule = {
      name: "acme/quiet",
      compile: () => ({ methods: [], capabilities: () => ({}), describeFeature: () => undefined }),
    };
    const description = describeApp([], [saying, silent]);
    expect(description.featureFacts).toEqual({ "acme/audit": { sink: "stdout", events: ["call"] } });
    expect(description.features).toEqual(["tools", "prompts", "resources", "completion", "acme/audit", "acme/quiet"]);
  });
});

describe("the apps feature's description", () => {
  const folder = folderOf({});
  const file = path.join(folder, "board.html");
  const html = "<!doctype html><html><body>board – ✓</body></html>";
  writeFileSync(file, html);

  @View({ uri: "ui://board/file", html: { file }, prefersBorder: true })
  class FileBoard {}

  @View({ uri: "ui://board/text", html: "<!doctype html><p>text</p>" })
  class TextBoard {}

  class Views {
    @View({
      uri: "ui://board/live",
      csp: { connectDomains: ["https://api.example.com"], frameDomains: [] },
      permissions: ["camera", "clipboardWrite"],
      domain: "board.sandbox.example",
      prefersBorder: false,
    })
    live() {
      return "<!doctype html><p>live</p>";
    }
  }

  class Board {
    @Tool({ view: FileBoard }) show() {
      return "shown";
    }
    @Tool({ view: "ui://board/file", visibility: ["app"] }) move() {
      return "moved";
    }
    @Tool({ visibility: ["model"] }) plain() {
      return "plain";
    }
    @Tool() unlinked() {
      return "none";
    }
  }

  const description = describeApp([Board, FileBoard, TextBoard, Views], [apps()]);
  const ui = (name: string) => description.components.find((c) => c.name === name)!.features["io.modelcontextprotocol/ui"];

  it("gives each linked tool its view and visibility, and nothing for a tool without either", () => {
    expect(ui("show")).toEqual({ view: "ui://board/file", visibility: ["model", "app"] });
    expect(ui("move")).toEqual({ view: "ui://board/file", visibility: ["app"] });
    expect(ui("plain")).toEqual({ visibility: ["model"] });
    expect(ui("unlinked")).toBeUndefined();
  });

  it("gives each view where its HTML comes from, its _meta.ui and the tools that show it", () => {
    expect(ui("ui://board/file")).toEqual({
      html: { from: "file", file, bytes: Buffer.byteLength(html) },
      csp: {},
      permissions: [],
      prefersBorder: true,
      tools: ["show", "move"],
    });
    expect(ui("ui://board/text")).toEqual({
      html: { from: "text", bytes: "<!doctype html><p>text</p>".length },
      csp: {},
      permissions: [],
      tools: [],
    });
    expect(ui("ui://board/live")).toEqual({
      html: { from: "method", method: "Views.live" },
      csp: { connectDomains: ["https://api.example.com"] },
      permissions: ["camera", "clipboardWrite"],
      domain: "board.sandbox.example",
      prefersBorder: false,
      tools: [],
    });
    expect(description.featureFacts).toEqual({});
  });
});

describe("the skills feature's description", () => {
  it("lists the skills served, where each comes from, its scopes and its files", async () => {
    const folder = folderOf({
      "pdf/SKILL.md": manifest("pdf", "Read PDFs."),
      "pdf/references/FORMS.md": "forms",
      "pdf/forms/SKILL.md": manifest("forms", "Fill PDF forms."),
    });
    const feature = skills({
      folder,
      prefix: "acme",
      scopes: { "acme/pdf": ["docs"] },
      skills: [{ path: "git-workflow", files: { "SKILL.md": manifest("git-workflow", "Commit well.") }, scopes: ["dev"] }],
    });
    const app = McpApp.create({ components: [], features: [feature], state: { ephemeral: true }, logger: new SilentLogger() });
    try {
      const size = (name: string, description: string) => Buffer.byteLength(manifest(name, description));
      expect(app.describe().featureFacts["io.modelcontextprotocol/skills"]).toEqual({
        folder,
        prefix: "acme",
        directoryRead: true,
        skills: [
          {
            name: "pdf",
            path: "acme/pdf",
            uri: "skill://acme/pdf/SKILL.md",
            description: "Read PDFs.",
            scopes: ["docs"],
            files: 3,
            bytes: size("pdf", "Read PDFs.") + "forms".length + size("forms", "Fill PDF forms."),
            source: path.join(folder, "pdf", "SKILL.md"),
          },
          {
            name: "forms",
            path: "acme/pdf/forms",
            uri: "skill://acme/pdf/forms/SKILL.md",
            description: "Fill PDF forms.",
            scopes: [],
            files: 1,
            bytes: size("forms", "Fill PDF forms."),
            source: path.join(folder, "pdf", "forms", "SKILL.md"),
          },
          {
            name: "git-workflow",
            path: "git-workflow",
            uri: "skill://git-workflow/SKILL.md",
            description: "Commit well.",
            scopes: ["dev"],
            files: 1,
            bytes: size("git-workflow", "Commit well."),
            source: 'skills[0] (git-workflow) file "SKILL.md"',
          },
        ],
      });
      writeFileSync(path.join(folder, "pdf", "forms", "SKILL.md"), manifest("forms", "Fill and sign PDF forms."));
      await feature.reload();
      const after = app.describe().featureFacts["io.modelcontextprotocol/skills"] as { skills: { name: string; description: string }[] };
      expect(after.skills.map((s) => [s.name, s.description])).toEqual([
        ["pdf", "Read PDFs."],
        ["forms", "Fill and sign PDF forms."],
        ["git-workflow", "Commit well."],
      ]);
    } finally {
      await app.close();
    }
  });
});
