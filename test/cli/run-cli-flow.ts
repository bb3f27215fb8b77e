/**
 * The command line end to end, from the packed package, as a new user runs it (CI: npm run test:cli):
 *
 * 1. `npm pack`; in an empty folder holding only the tarball:
 *    `npx --package ./roundtrip-mcp-<version>.tgz roundtrip-mcp init my-app`, then in my-app
 *    `npm install` and `npm test` (the app's own jest tests), then `npm run build`;
 * 2. `roundtrip-mcp dev` on a free port: round 1 of open_ticket, an edit of a source file, the
 *    restart (another pid), then rounds 2 and 3 with the requestState of before the restart: the
 *    flow completes because dev kept the state key; Ctrl-C ends dev and the app;
 * 3. `roundtrip-mcp inspect --json`: open_ticket with its questions in order; `roundtrip-mcp
 *    server-json`: refused without an mcpName in package.json (the fix named), then, once it has one
 *    and a description, a server.json valid against the registry's schema, the same whether
 *    STATE_KEYS is set or not (the app declares it: secret, not required);
 * 4. the hosts' own CLIs, installed from the registry into a temporary prefix (not the project's
 *    dependencies) with a temporary HOME: `roundtrip-mcp install` for Claude Code, Codex and Gemini
 *    CLI over stdio and, with --url, over HTTP to the running app; each host then reports the
 *    server connected (`claude mcp list`, `gemini mcp list`, and Codex's app server listing its
 *    tools); every config keeps the server that was there before; a second install changes no
 *    byte; Cursor, VS Code and Claude Desktop (no headless CLI) get their files, checked as JSON;
 * 5. a second app with every option (`--transport stdio --tasks --oauth`), on the first app's
 *    node_modules (the same dependencies): its tests and its build.
 * Exits 0 and removes its folder on success; exits 1 and keeps it (path printed) on failure.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { packedTarballName, REPO_ROOT } from "../support/guide-app";
import { serverJsonErrors } from "../support/discovery-schemas";
import { meta, rpc } from "../support/raw-http";
import { freePort } from "../support/free-port";
import { APP_ENV, FlowFailure, run, Watched } from "./cli-flow-steps";

const NPM = "npm";
const HOSTS = { "@anthropic-ai/claude-code": "2.1.328", "@openai/codex": "0.169.0", "@google/gemini-cli": "0.61.0" };
const ELICIT = { elicitation: { form: {} } };

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new FlowFailure(message);
}

async function scaffold(tmp: string): Promise<string> {
  run("pack", REPO_ROOT, NPM, ["pack", "--silent", "--pack-destination", tmp], process.env);
  const empty = path.join(tmp, "empty");
  mkdirSync(empty);
  const tarball = packedTarballName();
  writeFileSync(path.join(empty, tarball), readFileSync(path.join(tmp, tarball)));
  run("init", empty, "npx", ["--yes", "--package", `./${tarball}`, "roundtrip-mcp", "init", "my-app"]);
  const app = path.join(empty, "my-app");
  run("install", app, NPM, ["install"]);
  run("test", app, NPM, ["test"]);
  run("build", app, NPM, ["run", "build"]);
  return app;
}

/** open_ticket's rounds over HTTP; `before` and `after` are the server as it was and as it is. */
async function devFlow(app: string): Promise<void> {
  const port = await freePort();
  const dev = new Watched("npx", ["roundtrip-mcp", "dev", "--port", String(port)], app, APP_ENV);
  try {
    const banner = await dev.waitFor(/\[dev\] serving \S+ at (\S+) \(pid (\d+)\)/, 0, 120_000);
    const [, url, firstPid] = banner;
    const call = (params: Record<string, unknown>) =>
      rpc(url!, "tools/call", { name: "open_ticket", arguments: { title: "The printer is on fire" }, _meta: meta(ELICIT), ...params });
    const round1 = (await call({})).body?.result as Record<string, unknown>;
    check(round1?.resultType === "input_required", `round 1 answered ${JSON.stringify(round1)}`);
    const mark = dev.output.length;
    appendFileSync(path.join(app, "src", "ticket-store.ts"), "\n// edited while a flow was in progress\n");
    const [, , secondPid] = await dev
      .waitFor(/\[dev\] restarted \(pid (\d+)\) in ([\d.]+) s/, mark, 120_000)
      .then((m) => [m[0], m[2], m[1]]);
    check(secondPid !== firstPid, `dev restarted into the same pid ${firstPid}`);
    const round2 = (
      await call({ requestState: round1.requestState, inputResponses: { priority: { action: "accept", content: { priority: "urgent" } } } })
    ).body;
    const asked = round2?.result as Record<string, unknown> | undefined;
    check(
      asked?.resultType === "input_required" && Object.keys(asked.inputRequests as object).includes("confirm"),
      `round 2 after the restart answered ${JSON.stringify(round2)}`,
    );
    const round3 = (
      await call({ requestState: asked.requestState, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } })
    ).body;
    const done = round3?.result as Record<string, unknown> | undefined;
    check(
      done?.resultType === "complete" && (done.structuredContent as { opened?: boolean }).opened === true,
      `round 3 answered ${JSON.stringify(round3)}`,
    );
    console.log(`   a flow begun in pid ${firstPid} completed in pid ${secondPid}, after the restart`);
  } finally {
    const code = await dev.interrupt();
    console.log(`   dev ended (exit code ${code}, as Ctrl-C ends it)`);
  }
  // Ctrl-C ended the app too: nothing answers on its port any more.
  const url = /\[dev\] serving \S+ at (\S+)/.exec(dev.output)![1]!;
  const answered = await fetch(url, { method: "POST" }).then(
    () => true,
    () => false,
  );
  check(!answered, `${url} still answers after dev ended`);
}

export function inspectFlow(app: string): void {
  const output = run("inspect", app, "npx", ["roundtrip-mcp", "inspect", "--json"], APP_ENV, true);
  const report = JSON.parse(output) as {
    tools: { descriptor: { name: string }; component?: { questions: { key: string; round: number }[] } }[];
  };
  const tool = report.tools.find((t) => t.descriptor.name === "open_ticket");
  const questions = tool?.component?.questions.map((q) => `${q.round}:${q.key}`);
  check(
    JSON.stringify(questions) === JSON.stringify(["1:priority", "2:confirm"]),
    `inspect shows open_ticket asking ${JSON.stringify(questions)}`,
  );
}

export function serverJsonFlow(app: string): void {
  console.log("\n== server-json without an mcpName: npx roundtrip-mcp server-json");
  const refused = spawnSync("npx", ["roundtrip-mcp", "server-json"], { cwd: app, env: APP_ENV, encoding: "utf8" });
  console.log(refused.stderr.trim());
  check(
    refused.status === 1 && refused.stderr.includes('package.json has no mcpName: add "mcpName": "io.github.<user>/<server>"'),
    `server-json without an mcpName exited ${refused.status}: ${refused.stderr}`,
  );
  const packageFile = path.join(app, "package.json");
  const before = readFileSync(packageFile, "utf8");
  const pkg = JSON.parse(before) as Record<string, unknown>;
  writeFileSync(packageFile, JSON.stringify({ ...pkg, mcpName: "io.github.acme/my-app", description: "A support desk" }, null, 2));
  try {
    run("server-json", app, "npx", ["roundtrip-mcp", "server-json", "--out", "server.json"], { ...APP_ENV, STATE_KEYS: "" });
    const written = readFileSync(path.join(app, "server.json"), "utf8");
    const errors = serverJsonErrors(JSON.parse(written));
    check(errors.length === 0, `server.json breaks the registry's schema: ${errors.join("; ")}`);
    const keys = `k1:${Buffer.alloc(32, 1).toString("base64")}`;
    const printed = run(
      "server-json (STATE_KEYS set)",
      app,
      "npx",
      ["roundtrip-mcp", "server-json"],
      { ...APP_ENV, STATE_KEYS: keys },
      true,
    );
    check(printed === written, `server-json differs with STATE_KEYS set:\n${printed}\nand without:\n${written}`);
    const document = JSON.parse(written) as {
      packages: { identifier: string; environmentVariables: { name: string; isRequired?: boolean; isSecret?: boolean }[] }[];
    };
    const [stateKeys] = document.packages[0]!.environmentVariables;
    check(
      document.packages[0]!.identifier === pkg.name &&
        stateKeys?.name === "STATE_KEYS" &&
        stateKeys.isSecret === true &&
        stateKeys.isRequired === undefined,
      `server.json's package is ${JSON.stringify(document.packages)}`,
    );
  } finally {
    writeFileSync(packageFile, before);
    rmSync(path.join(app, "server.json"), { force: true });
  }
}

export async function hostsFlow(tmp: string, app: string): Promise<void> {
  const prefix = path.join(tmp, "hosts");
  run("host CLIs", tmp, NPM, [
    "install",
    "--prefix",
    prefix,
    "--no-audit",
    "--no-fund",
    "--no-save",
    ...Object.entries(HOSTS).map(([n, v]) => `${n}@${v}`),
  ]);
  const bin = (name: string) => path.join(prefix, "node_modules", ".bin", name);
  const home = path.join(tmp, "home");
  mkdirSync(path.join(home, ".codex"), { recursive: true });
  mkdirSync(path.join(home, ".gemini"), { recursive: true });
  // A server of the user's own in each file, with a comment where the format has them: kept as it is.
  const codexBefore = '# my settings\nmodel = "o3"\n\n[mcp_servers.mine]\ncommand = "echo"\nargs = ["mine"]\n';
  writeFileSync(path.join(home, ".codex", "config.toml"), codexBefore);
  writeFileSync(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [app]: "TRUST_FOLDER" }));
  mkdirSync(path.join(app, ".vscode"), { recursive: true });
  writeFileSync(
    path.join(app, ".vscode", "mcp.json"),
    '{\n  // my servers\n  "servers": { "mine": { "type": "stdio", "command": "echo" } }\n}\n',
  );
  const env = { ...APP_ENV, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
  const cli = (args: string[]) => run(`roundtrip-mcp ${args.join(" ")}`, app, "npx", ["roundtrip-mcp", ...args], env);

  const port = await freePort();
  const server = new Watched(process.execPath, ["dist/main.js", "--http"], app, { ...APP_ENV, PORT: String(port) });
  try {
    const [, url] = await server.waitFor(/listening on (\S+)/, 0, 60_000);
    for (const host of ["claude-code", "codex", "gemini"]) {
      cli(["install", host]);
      cli(["install", host, "--url", url!, "--name", "my-app-http"]);
    }
    for (const host of ["cursor", "vscode", "claude-desktop"]) cli(["install", host]);
    const snapshot = () => ["/.claude.json", "/.codex/config.toml"].map((f) => readFileSync(path.join(home, f), "utf8"));
    const before = snapshot();
    check(
      cli(["install", "codex"]).includes("nothing changed") && cli(["install", "claude-code"]).includes("nothing changed"),
      "a second install changed something",
    );
    check(JSON.stringify(snapshot()) === JSON.stringify(before), "a second install rewrote a file");
    check(cli(["install", "cursor", "--dry-run", "--name", "other"]).includes("--dry-run: nothing written"), "--dry-run wrote");

    const claude = run("claude mcp list", app, bin("claude"), ["mcp", "list"], env);
    check(
      /my-app: .*Connected/.test(claude) && /my-app-http: .*Connected/.test(claude),
      "Claude Code does not report both servers connected",
    );
    const gemini = run("gemini mcp list", app, bin("gemini"), ["mcp", "list"], env);
    check(
      /my-app: .*Connected/.test(gemini) && /my-app-http: .*Connected/.test(gemini),
      "Gemini CLI does not report both servers connected",
    );
    const codex = await codexServers(bin("codex"), app, env);
    for (const name of ["my-app", "my-app-http"])
      check(codex.get(name)?.includes("open_ticket"), `Codex's app server lists for ${name}: ${JSON.stringify(codex.get(name))}`);
    check(readFileSync(path.join(home, ".codex", "config.toml"), "utf8").startsWith(codexBefore), "the Codex config lost what was in it");
    check(codex.has("mine"), "Codex lost the server that was there before");
    const vscode = readFileSync(path.join(app, ".vscode", "mcp.json"), "utf8");
    check(
      vscode.includes("// my servers") && vscode.includes('"mine"') && vscode.includes('"my-app"'),
      `VS Code's mcp.json is now ${vscode}`,
    );
    for (const file of [path.join(home, ".cursor", "mcp.json"), path.join(home, ".config", "Claude", "claude_desktop_config.json")])
      check(
        existsSync(file) && (JSON.parse(readFileSync(file, "utf8")) as { mcpServers: Record<string, unknown> }).mcpServers["my-app"],
        `${file} has no my-app`,
      );
  } finally {
    await server.interrupt();
  }
}

/** Codex's app server, asked for its MCP servers' status: each server's tool names (it connects to them). */
async function codexServers(codex: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Map<string, string[]>> {
  console.log(`\n== codex app-server: mcpServerStatus/list`);
  const child = spawn(codex, ["app-server"], { cwd, env, stdio: ["pipe", "pipe", "inherit"] });
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line === "") continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message.id === "number") answers.get(message.id)?.(message);
    }
  });
  let nextId = 0;
  const call = (method: string, params: object) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => reject(new FlowFailure(`codex app-server did not answer ${method} within 60 s`)), 60_000);
      answers.set(id, (message) => (clearTimeout(timer), resolve(message)));
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  try {
    await call("initialize", { clientInfo: { name: "roundtrip-mcp-ci", version: "1.0.0" } });
    child.stdin.write(`${JSON.stringify({ method: "initialized", params: {} })}\n`);
    const status = await call("mcpServerStatus/list", { detail: "toolsAndAuthOnly" });
    const servers = (status.result as { data?: { name: string; tools?: Record<string, unknown> }[] } | undefined)?.data ?? [];
    const found = new Map(servers.map((s) => [s.name, Object.keys(s.tools ?? {})]));
    console.log(`   ${[...found].map(([name, tools]) => `${name}: ${tools.join(", ") || "no tools"}`).join("; ")}`);
    return found;
  } finally {
    child.kill();
  }
}

/**
 * Every option at once: the variants' files compile with the app's own tsconfig and their tests
 * pass. Its dependencies are the first app's exactly (the options change no dependency), so it
 * runs on that app's node_modules instead of a second install.
 */
export function everyOption(tmp: string, first: string): void {
  const empty = path.join(tmp, "empty");
  run("init (every option)", empty, "npx", [
    "--yes",
    "--package",
    `./${packedTarballName()}`,
    "roundtrip-mcp",
    "init",
    "full-app",
    "--transport",
    "stdio",
    "--tasks",
    "--oauth",
  ]);
  const app = path.join(empty, "full-app");
  const dependencies = (dir: string) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies: object; devDependencies: object };
    return JSON.stringify([pkg.dependencies, pkg.devDependencies]);
  };
  check(dependencies(app) === dependencies(first), "the app with every option has other dependencies than the first app");
  symlinkSync(path.join(first, "node_modules"), path.join(app, "node_modules"), "dir");
  run("test (every option)", app, NPM, ["test"]);
  run("build (every option)", app, NPM, ["run", "build"]);
}

async function main(): Promise<number> {
  const started = Date.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), "roundtrip-mcp-cli-"));
  try {
    const app = await scaffold(tmp);
    await devFlow(app);
    inspectFlow(app);
    serverJsonFlow(app);
    await hostsFlow(tmp, app);
    everyOption(tmp, app);
  } catch (error) {
    console.error(`\ncommand line flow FAILED: ${(error as Error).message}\nkept in ${tmp}`);
    return 1;
  }
  console.log(`\ncommand line flow passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  rmSync(tmp, { recursive: true, force: true });
  return 0;
}

if (require.main === module) void main().then((code) => process.exit(code));
