// Pins `roundtrip-mcp init` writing an app (with a stand-in terminal and prompts):
// - flags decide the transport (npm start), the variants, the package name and the dependency;
// - on a terminal the questions the flags leave open are asked, and the answers decide;
// - a folder that is not empty is refused with the fix (--force), one holding only .git is not;
// - a folder name becomes a valid npm name, or the error names --name;
// - a tarball source is copied beside package.json and depended on as file:<name>.
// (Each test names --from: without it, a checkout is packed, which takes a minute.)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CliIo, Prompts } from "../../../../src/cli/cli-io";
import { initCommand, packageName } from "../../../../src/cli/init/init-command";

let cwd: string;
let output: string[];

function io(interactive: boolean, prompts: Partial<Prompts> = {}): CliIo {
  const refuse = () => Promise.reject(new Error("not asked"));
  return {
    cwd,
    env: {},
    interactive,
    out: (text) => output.push(text),
    err: (text) => output.push(text),
    prompts: { input: refuse, select: refuse, confirm: refuse, ...prompts },
  };
}

const read = (...parts: string[]) => readFileSync(path.join(cwd, ...parts), "utf8");
const pkg = (dir: string) =>
  JSON.parse(read(dir, "package.json")) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string> };

beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), "init-test-"));
  output = [];
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe("roundtrip-mcp init", () => {
  it("writes the app the flags describe", async () => {
    await initCommand("Support Desk", { transport: "stdio", tasks: true, from: "1.2.3" }, io(false));
    const app = pkg("Support Desk");
    expect(app.name).toBe("support-desk");
    expect(app.scripts.start).toBe("node dist/main.js --stdio");
    expect(app.dependencies["roundtrip-mcp"]).toBe("1.2.3");
    expect(read("Support Desk", "src", "extensions.ts")).toContain("tasks(");
    expect(read("Support Desk", "src", "http-auth.ts")).not.toContain("jwtVerifier");
    expect(existsSync(path.join(cwd, "Support Desk", ".gitignore"))).toBe(true);
    expect(read("Support Desk", "README.md")).toMatch(/^# support-desk/);
    expect(output.join("\n")).toContain('cd "Support Desk"');
  });

  it("asks what the flags leave open on a terminal", async () => {
    const asked: string[] = [];
    await initCommand(
      undefined,
      { oauth: false, from: "0.1.0" },
      io(true, {
        input: async (message) => (asked.push(message), "asked-app"),
        select: async (message) => (asked.push(message), "stdio"),
        confirm: async (message) => (asked.push(message), true),
      }),
    );
    expect(asked).toEqual([
      "Folder for the new app",
      "Which transport does `npm start` serve first?",
      "Add the tasks extension (a tool that may run as a task)?",
    ]);
    expect(pkg("asked-app").scripts.start).toBe("node dist/main.js --stdio");
    expect(read("asked-app", "src", "extensions.ts")).toContain("tasks(");
    expect(read("asked-app", "src", "http-auth.ts")).not.toContain("jwtVerifier");
  });

  it("asks nothing without a terminal, or with --yes", async () => {
    await initCommand("quiet", { from: "0.1.0" }, io(false));
    await initCommand("yes", { yes: true, from: "0.1.0" }, io(true));
    expect(pkg("quiet").scripts.start).toBe("node dist/main.js --http");
    expect(pkg("yes").scripts.start).toBe("node dist/main.js --http");
  });

  it("refuses a folder that is not empty unless told, and takes one holding only .git", async () => {
    mkdirSync(path.join(cwd, "taken"));
    writeFileSync(path.join(cwd, "taken", "notes.txt"), "mine");
    await expect(initCommand("taken", { from: "0.1.0" }, io(false))).rejects.toThrow(
      "is not empty (notes.txt): name a new folder, or pass --force",
    );
    await initCommand("taken", { force: true, from: "0.1.0" }, io(false));
    expect(read("taken", "notes.txt")).toBe("mine");
    mkdirSync(path.join(cwd, "repo", ".git"), { recursive: true });
    await initCommand("repo", { from: "0.1.0" }, io(false));
    expect(existsSync(path.join(cwd, "repo", "src", "app.ts"))).toBe(true);
  });

  it("copies a tarball beside package.json and depends on it", async () => {
    writeFileSync(path.join(cwd, "roundtrip-mcp-9.9.9.tgz"), "not really a tarball");
    await initCommand("from-tarball", { from: "./roundtrip-mcp-9.9.9.tgz" }, io(false));
    expect(pkg("from-tarball").dependencies["roundtrip-mcp"]).toBe("file:roundtrip-mcp-9.9.9.tgz");
    expect(read("from-tarball", "roundtrip-mcp-9.9.9.tgz")).toBe("not really a tarball");
    await expect(initCommand("missing", { from: "./nope.tgz" }, io(false))).rejects.toThrow(
      "pass --from with the path of the packed package",
    );
  });

  it("makes an npm name of a folder name, or says to pass --name", () => {
    expect(packageName("My App!")).toBe("my-app");
    expect(packageName("_x.y")).toBe("x.y");
    expect(() => packageName("!!!")).toThrow("pass --name <name>");
  });
});
