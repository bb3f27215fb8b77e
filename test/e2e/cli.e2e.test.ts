// The roundtrip-mcp command as a child process (the built dist/src/cli/main.js), as a user runs it:
// - every subcommand answers --help, and the top level lists them;
// - inspect prints the preferences sample's flows: each tool with its schema, the questions of each
//   flow in order with their rounds, the resource template and the prompt; --json the same for
//   scripts; an app whose create() fails prints that error as its start-up would, and exits 1;
// - inspect shows views and skills: each linked tool's view and visibility, each view's HTML
//   source, CSP, permissions, domain and border, the skills served (path, URI, scopes, files) and
//   the extensions declared with their settings, in the text and in --json;
// - inspect of an entry that serves its app as it loads (npm start's main-http.ts) inspects that
//   app and serves nothing: the port it would listen on stays free for others;
// - server-json prints or writes (--out) a server.json valid against the registry's schema, with
//   --remote, --oauth and --no-package; it names the fix for a missing mcpName (the app's own),
//   for flags that contradict each other, and for a URL that is not http(s);
// - install --dry-run prints the entry and writes nothing; install names the fix for a missing
//   build, an unknown host and a scope the host does not have;
// - init refuses a folder that is not empty, naming --force.
// (test:cli runs init, dev, inspect and install from the packed package, with the hosts' CLIs.)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { serverJsonErrors } from "../support/discovery-schemas";

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "dist", "src", "cli", "main.js");

interface Entry {
  descriptor: { name?: string; uri?: string };
  component?: { features: Record<string, unknown> };
}
interface Report {
  server: object;
  discover: { capabilities: Record<string, unknown> };
  tools: Entry[];
  resources: Entry[];
  featureFacts: Record<string, unknown>;
}

function cli(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: "utf8", timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("roundtrip-mcp", () => {
  it("answers --help for itself and each subcommand", () => {
    const top = cli(["--help"]);
    expect(top.code).toBe(0);
    for (const command of ["init", "dev", "inspect", "server-json", "install"]) expect(top.stdout).toContain(command);
    expect(cli(["init", "--help"]).stdout).toContain("--transport <transport>");
    expect(cli(["dev", "--help"]).stdout).toContain("--port <port>");
    expect(cli(["inspect", "--help"]).stdout).toContain("--json");
    expect(cli(["server-json", "--help"]).stdout).toContain("--remote <url>");
    expect(cli(["install", "--help"]).stdout).toMatch(/claude-code, claude-desktop, codex, gemini,\s+cursor, vscode/);
  });

  describe("inspect", () => {
    it("prints the sample's flows as JSON", () => {
      const run = cli(["inspect", "sample/preferences/preferences-app.ts", "--json"]);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout) as {
        server: { name: string };
        tools: {
          descriptor: { name: string; inputSchema: object };
          component: { questions: { key: string; round: number; mode: string; url?: string }[] };
        }[];
        resourceTemplates: { descriptor: { uriTemplate: string }; component: { questions: { key: string; round: number }[] } }[];
        prompts: { descriptor: { name: string } }[];
        discover: { capabilities: Record<string, unknown> };
      };
      expect(report.server.name).toBe("roundtrip-mcp-preferences");
      expect(report.tools.map((t) => t.descriptor.name)).toEqual([
        "choose_preferences",
        "preview_theme",
        "reset_preferences",
        "show_theme",
        "style_options",
      ]);
      const flow = (entry: { component: { questions: { key: string; round: number; mode: string }[] } }) =>
        entry.component.questions.map((q) => `${q.round}:${q.key}:${q.mode}`);
      expect(flow(report.tools[0]!)).toEqual(["1:color:form", "2:style:computed"]);
      expect(report.tools[0]!.descriptor.inputSchema).toEqual({ type: "object", additionalProperties: false });
      expect(report.tools[1]!.component.questions[0]).toMatchObject({
        key: "consent",
        mode: "url",
        url: "http://localhost/preview?theme=current",
      });
      expect(report.resourceTemplates.map((t) => t.descriptor.uriTemplate)).toEqual(["preferences://{profile}/summary"]);
      expect(report.resourceTemplates[0]!.component.questions.map((q) => `${q.round}:${q.key}`)).toEqual(["1:color", "2:style"]);
      expect(report.prompts.map((p) => p.descriptor.name)).toEqual(["preferences_prompt"]);
      expect(Object.keys(report.discover.capabilities)).toEqual(expect.arrayContaining(["tools", "resources", "prompts"]));
    });

    it("prints them for a person", () => {
      const run = cli(["inspect", "sample/preferences/preferences-app.ts"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("choose_preferences");
      expect(run.stdout).toMatch(/round 1 {2}color {2}form {2}"Which colour do you prefer\?" {2}choices: red \| green \| blue/);
      expect(run.stdout).toContain("round 2  style");
      expect(run.stdout).toContain("scopes: preferences:admin");
      expect(run.stdout).toContain("Resource templates (1)");
    });

    it("shows the sample's view, the tools linked to it, its skills and the extensions, of the app npm start serves", async () => {
      // A port held here: had inspect let main-http.ts listen, it would fail on it (EADDRINUSE) and exit 1.
      const held = net.createServer();
      await new Promise<void>((resolve) => held.listen(0, "127.0.0.1", resolve));
      const port = String((held.address() as net.AddressInfo).port);
      try {
        const run = cli(["inspect", "sample/preferences/main-http.ts", "--json"], ROOT, { ...process.env, PORT: port, STATE_KEYS: "" });
        expect(run.stderr).not.toContain("EADDRINUSE");
        expect(run.code).toBe(0);
        expect(run.stdout).not.toContain("listening on");
        const report = JSON.parse(run.stdout) as Report;
        expect(report.server).toMatchObject({ name: "roundtrip-mcp-preferences", title: "Preferences" });
        expect((report.discover.capabilities as { extensions: object }).extensions).toEqual({
          "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] },
          "io.modelcontextprotocol/skills": { directoryRead: true },
        });
        const ui = (entries: Report["tools"], name: string) =>
          entries.find((e) => e.descriptor.name === name || e.descriptor.uri === name)?.component?.features["io.modelcontextprotocol/ui"];
        expect(ui(report.tools, "show_theme")).toEqual({ view: "ui://preferences/theme-preview", visibility: ["model", "app"] });
        expect(ui(report.tools, "style_options")).toEqual({ view: "ui://preferences/theme-preview", visibility: ["app"] });
        expect(ui(report.tools, "choose_preferences")).toBeUndefined();
        expect(ui(report.resources, "ui://preferences/theme-preview")).toEqual({
          html: { from: "file", file: path.join(ROOT, "dist/sample/preferences/view/theme-preview.html"), bytes: expect.any(Number) },
          csp: {},
          permissions: [],
          prefersBorder: true,
          tools: ["show_theme", "style_options"],
        });
        expect(report.featureFacts["io.modelcontextprotocol/skills"]).toEqual({
          folder: path.join(ROOT, "sample/preferences/skills"),
          directoryRead: true,
          skills: [
            {
              name: "display-preferences",
              path: "display-preferences",
              uri: "skill://display-preferences/SKILL.md",
              description: expect.stringContaining("colour and a style"),
              scopes: [],
              files: 2,
              bytes: expect.any(Number),
              source: path.join(ROOT, "sample/preferences/skills/display-preferences/SKILL.md"),
            },
          ],
        });
      } finally {
        held.close();
      }
    });

    it("prints views, their tools and skills for a person", () => {
      const run = cli(["inspect", "test/e2e/fixtures/cli/views-and-skills-app.ts"]);
      expect(run.code).toBe(0);
      const text = run.stdout;
      expect(text).toContain('  extensions:\n    io.modelcontextprotocol/ui  {"mimeTypes":["text/html;profile=mcp-app"]}');
      expect(text).toContain('    io.modelcontextprotocol/skills  {"directoryRead":true}');
      expect(text).toContain("    io.modelcontextprotocol/ui:\n      view: ui://board/static\n      visibility: app");
      expect(text).toContain("    io.modelcontextprotocol/ui:\n      view: ui://board/live\n      visibility: model, app");
      expect(text).toContain(
        [
          "    io.modelcontextprotocol/ui:",
          "      html: from: method; method: BoardViews.live",
          "      csp: connectDomains: https://api.board.example; resourceDomains: https://cdn.board.example",
          "      permissions: clipboardWrite",
          "      domain: board.example-sandbox.com",
          "      prefersBorder: false",
          "      tools: show_card",
        ].join("\n"),
      );
      expect(text).toContain("      html: from: text; bytes: 47\n      csp: (none)\n      permissions: (none)\n      tools: move_card");
      expect(text).toContain(
        [
          "io.modelcontextprotocol/skills",
          "  directoryRead: true",
          "  skills (2):",
          "    - name: review",
          "      path: acme/review",
          "      uri: skill://acme/review/SKILL.md",
          "      description: Review a card before it moves.",
          "      scopes: (none)",
          "      files: 2",
        ].join("\n"),
      );
      expect(text).toContain("    - name: triage\n      path: triage\n      uri: skill://triage/SKILL.md");
      expect(text).toContain("      scopes: board:admin\n      files: 1");
    });

    it("prints a create() error as the app's start-up would, and exits 1", () => {
      const run = cli(["inspect", "test/e2e/fixtures/cli/broken-app.ts"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/RegistrationError: .*same/);
      expect(run.stderr).toContain("at ");
    });

    it("names --export when the module exports no app", () => {
      const run = cli(["inspect", "sample/preferences/preference-questions.ts"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("exports no McpApp and no createApp()");
      expect(run.stderr).toContain("--export <name>");
    });
  });

  describe("server-json", () => {
    const SAMPLE = path.join(ROOT, "dist/sample/preferences/main-http.js");
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), "cli-server-json-"));
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "@acme/preferences", version: "1.2.0", mcpName: "io.github.roundtrip-mcp/preferences" }),
      );
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("prints a valid server.json from the app and the package.json of the folder it runs in", () => {
      const run = cli(["server-json", SAMPLE, "--remote", "https://prefs.example.com/mcp", "--oauth"], dir, {
        ...process.env,
        STATE_KEYS: "",
      });
      expect(run.code).toBe(0);
      const document = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(serverJsonErrors(document)).toEqual([]);
      expect(document).toEqual({
        $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        name: "io.github.roundtrip-mcp/preferences",
        description: "Chooses and previews a colour and a style, asking the user for each",
        title: "Preferences",
        version: "1.2.0",
        packages: [
          {
            registryType: "npm",
            identifier: "@acme/preferences",
            version: "1.2.0",
            transport: { type: "stdio" },
            environmentVariables: [
              { name: "PORT", description: "The port to listen on (0 takes a free one)", format: "number", default: "3000" },
            ],
          },
        ],
        remotes: [
          {
            type: "streamable-http",
            url: "https://prefs.example.com/mcp",
            headers: [{ name: "Authorization", description: expect.any(String), isRequired: true, isSecret: true }],
          },
        ],
      });
    });

    it("writes it with --out, and publishes remotes only with --no-package", () => {
      const run = cli(
        [
          "server-json",
          SAMPLE,
          "--out",
          "server.json",
          "--no-package",
          "--remote",
          "https://a.example.com/mcp",
          "--remote",
          "https://b.example.com/mcp",
        ],
        dir,
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Wrote server.json: io.github.roundtrip-mcp/preferences 1.2.0: 2 remotes\n");
      const document = JSON.parse(readFileSync(path.join(dir, "server.json"), "utf8")) as {
        packages?: unknown;
        remotes: { url: string }[];
      };
      expect(serverJsonErrors(document)).toEqual([]);
      expect(document.packages).toBeUndefined();
      expect(document.remotes.map((r) => r.url)).toEqual(["https://a.example.com/mcp", "https://b.example.com/mcp"]);
    });

    it("names the fix: package.json without mcpName, contradicting flags, a URL that is not http(s)", () => {
      const missing = cli(["server-json", "sample/preferences/main-http.ts"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(
        'roundtrip-mcp server-json: package.json has no mcpName: add "mcpName": "io.github.roundtrip-mcp/preferences" (reverse-DNS;',
      );
      expect(cli(["server-json", SAMPLE, "--oauth"], dir).stderr).toContain(
        "--oauth says the remotes require a bearer token: give the deployed URL with --remote <url>",
      );
      expect(cli(["server-json", SAMPLE, "--no-package"], dir).stderr).toContain(
        "--no-package publishes remotes only: give the deployed URL with --remote <url>",
      );
      expect(cli(["server-json", SAMPLE, "--remote", "mcp.example.com"], dir).stderr).toContain(
        "--remote mcp.example.com is not an http(s) URL: give the server's Streamable HTTP URL",
      );
      expect(existsSync(path.join(dir, "server.json"))).toBe(false);
    });
  });

  describe("install and init", () => {
    let dir: string;
    let env: NodeJS.ProcessEnv;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), "cli-e2e-"));
      mkdirSync(path.join(dir, "home"));
      env = { ...process.env, HOME: path.join(dir, "home") };
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "@acme/desk", main: "dist/main.js" }));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("prints the entry on --dry-run and writes nothing", () => {
      mkdirSync(path.join(dir, "dist"));
      writeFileSync(path.join(dir, "dist", "main.js"), "");
      const run = cli(["install", "codex", "--dry-run", "--env", "STATE_KEYS=k"], dir, env);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Would add desk in Codex, user scope: ${path.join(dir, "home", ".codex", "config.toml")}`);
      expect(run.stdout).toContain("[mcp_servers.desk]");
      expect(run.stdout).toContain(`args = [ "${path.join(dir, "dist", "main.js")}", "--stdio" ]`);
      expect(existsSync(path.join(dir, "home", ".codex"))).toBe(false);
    });

    it("names the fix for a missing build, an unknown host and a scope the host lacks", () => {
      expect(cli(["install", "cursor"], dir, env).stderr).toContain("dist/main.js does not exist: run npm run build first");
      expect(cli(["install", "emacs"], dir, env).stderr).toContain('roundtrip-mcp install: unknown host "emacs": one of claude-code');
      const scope = cli(["install", "claude-desktop", "--scope", "project"], dir, env);
      expect(scope.code).toBe(1);
      expect(scope.stderr).toContain('Claude Desktop has no "project" scope: use user');
    });

    it("refuses to init into a folder that is not empty", () => {
      const run = cli(["init", dir, "--from", "0.1.0"], dir, env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is not empty");
      expect(run.stderr).toContain("pass --force");
    });
  });
});
