/**
 * Drives the hosts people run through real tool calls against the compiled preferences sample:
 * Codex (`codex app-server`, 2025-06-18 by default and 2026-07-28 with its `mcp_2026_07_28`
 * feature), Claude Code (`claude -p`, 2026-07-28 by default and 2025-11-25 with
 * MCP_PROTOCOL_NEGOTIATION=legacy), Gemini CLI (`gemini -p`, 2025-06-18) and the MCP Inspector
 * (`mcpdo` and `--cli`, 2025-11-25 and 2026-07-28), each over stdio and HTTP, with the form flow
 * (choose_preferences) and the URL consent (preview_theme).
 *
 *   npm run test:hosts       (builds first; not part of npm test or .ci/run: see docs/hosts.md)
 *
 * 1. installs the pinned host CLIs from the npm registry into a scratch folder outside the
 *    repository (HOSTS_DIR, default <tmpdir>/roundtrip-mcp-hosts), each in its own folder; they are
 *    not dependencies of this project;
 * 2. starts the HTTP sample and, per run, a scripted stand-in for the model API the host calls
 *    (model-stand-ins.ts) and a logging pass-through in front of the server (tap-stdio.mjs for
 *    stdio; an in-process HTTP pass-through here), in a home folder of its own;
 * 3. drives the host (host-drivers.ts), answering its questions, and checks what the server sent:
 *    the revision spoken, and the final tool result (or the -32021 message a host that declares no
 *    elicitation gets);
 * 4. prints one line per check and "N passed, N failed"; exits 0 only when every check passed
 *    (1 otherwise, 2 when the harness itself failed). The wire logs stay in HOSTS_DIR/logs.
 *    HOSTS_ONLY=codex,claude,gemini,inspector runs only those hosts.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { driveClaude, driveCodex, driveGemini, driveInspectorCli, driveMcpdo, type Turn } from "./host-drivers";
import { anthropicStandIn, geminiStandIn, openAiStandIn, type StandIn } from "./model-stand-ins";

const REPO = path.resolve(__dirname, "..", "..");
const HTTP_SAMPLE = path.join(REPO, "dist", "sample", "preferences", "main-http.js");
const STDIO_SAMPLE = path.join(REPO, "dist", "sample", "preferences", "main-stdio.js");
const TAP = path.join(__dirname, "tap-stdio.mjs");
const HOSTS_DIR = process.env.HOSTS_DIR ?? path.join(os.tmpdir(), "roundtrip-mcp-hosts");
const LOGS = path.join(HOSTS_DIR, "logs");

/** The versions driven (docs/hosts.md records what each did). */
const PINS = {
  codex: { pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.337", bin: "claude" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  inspector: { pkg: "@modelcontextprotocol/inspector", version: "2.12.0", bin: "mcp-inspector" },
} as const;

const FORM_RESULT = '"structuredContent":{"color":"red","style":"crimson"}';
const URL_RESULT = '"structuredContent":{"consent":"accept","verified":false}';
const NO_FORM = "Missing required client capability: elicitation. This client did not declare it at initialize";
const NO_URL = "URL questions need 2025-11-25 or later";

class HarnessError extends Error {}

/** HOSTS_ONLY=codex,claude,gemini,inspector picks hosts (all by default). */
const ONLY = process.env.HOSTS_ONLY?.split(",").map((h) => h.trim());
const wanted = (host: string) => ONLY === undefined || ONLY.includes(host);

function install(name: keyof typeof PINS): string {
  const { pkg, version, bin } = PINS[name];
  const dir = path.join(HOSTS_DIR, `${name}-${version}`);
  const binary = path.join(dir, "node_modules", ".bin", bin);
  if (fs.existsSync(binary)) return binary;
  process.stderr.write(`[hosts] installing ${pkg}@${version} into ${dir} ...\n`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `hosts-${name}`, private: true }));
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${version}`], {
    cwd: dir,
    encoding: "utf8",
  });
  if (npm.status !== 0 || !fs.existsSync(binary)) throw new HarnessError(`npm install ${pkg}@${version} failed in ${dir}: ${npm.stderr}`);
  return binary;
}

async function startHttpSample(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [HTTP_SAMPLE], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new HarnessError("the HTTP sample printed no URL in time")), 30_000);
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const found = /listening on (\S+)/.exec(line);
      if (!found) return;
      clearTimeout(timer);
      resolve(found[1]!);
    });
  });
  return { url, stop: () => void child.kill("SIGTERM") };
}

/** A pass-through to the HTTP sample that appends each request and response body, raw, to `log`. */
async function httpTap(target: string, log: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      fs.appendFileSync(log, `> ${req.method} ${req.url} ${req.headers["mcp-protocol-version"] ?? ""} ${body.toString("utf8")}\n`);
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on("data", (c: Buffer) => (fs.appendFileSync(log, `< ${answer.statusCode} ${c.toString("utf8")}\n`), res.write(c)));
          answer.on("end", () => res.end());
        },
      );
      up.on("error", () => (res.writeHead(502), res.end()));
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

interface Run {
  host: string;
  revision: string;
  transport: "stdio" | "http";
  tool: "choose_preferences" | "preview_theme";
}

const results: { name: string; ok: boolean; detail: string }[] = [];

function check(name: string, ok: boolean, detail: string): void {
  results.push({ name, ok, detail });
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${name}${ok ? "" : `: ${detail}`}\n`);
}

/** A fresh home for one run; the server entry of the host's config; the wire log. */
function prepare(run: Run): { home: string; log: string; stdio: string[] } {
  const name = `${run.host}-${run.revision}-${run.transport}-${run.tool}`;
  const home = path.join(HOSTS_DIR, "homes", name);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const log = path.join(LOGS, `${name}.log`);
  fs.rmSync(log, { force: true });
  return { home, log, stdio: [TAP, log, process.execPath, STDIO_SAMPLE] };
}

/** What the server sent and the host saw, checked against what the run should end with. */
function judge(run: Run, log: string, turn: Turn, expect: "form" | "url" | "no-form" | "no-url"): void {
  const wire = fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
  const name = `${run.host} ${run.revision} ${run.transport} ${run.tool}`;
  const spoke =
    run.revision === "2026-07-28"
      ? wire.includes('"method":"server/discover"') && !wire.includes('"method":"initialize"')
      : wire.includes(`"protocolVersion":"${run.revision}"`) && wire.includes('"method":"initialize"');
  check(`${name}: speaks ${run.revision}`, spoke, `wire log ${log}`);
  const wanted = { form: FORM_RESULT, url: URL_RESULT, "no-form": NO_FORM, "no-url": NO_URL }[expect];
  check(
    `${name}: ${expect === "form" ? "form flow completes" : expect === "url" ? "URL consent completes" : `-32021 (${wanted})`}`,
    wire.includes(wanted),
    `host: ${turn.final.slice(0, 300)} | answered ${JSON.stringify(turn.answered)} | wire log ${log}`,
  );
}

/** Runs one host turn under a model stand-in; a driver that fails (the host exited, timed out) is a failed check, not the end of the run. */
async function withStandIn(name: string, standIn: Promise<StandIn>, body: (s: StandIn) => Promise<void>): Promise<void> {
  const s = await standIn;
  try {
    await body(s);
  } catch (error) {
    check(`${name}: the host ran the turn`, false, error instanceof Error ? error.message.slice(0, 600) : String(error));
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  for (const file of [HTTP_SAMPLE, STDIO_SAMPLE])
    if (!fs.existsSync(file)) throw new HarnessError(`${file} is missing: run npm run build first`);
  fs.mkdirSync(LOGS, { recursive: true });
  const bins = { codex: install("codex"), claude: install("claude"), gemini: install("gemini"), inspector: install("inspector") };
  const mcpdo = path.join(path.dirname(bins.inspector), "mcpdo");
  const sample = await startHttpSample();
  const cwd = path.join(HOSTS_DIR, "work");
  fs.mkdirSync(cwd, { recursive: true });
  const tools = ["choose_preferences", "preview_theme"] as const;
  const transports = ["stdio", "http"] as const;
  try {
    for (const transport of transports) {
      for (const tool of tools) {
        const expect = tool === "choose_preferences" ? "form" : "url";
        const tapped = async <T>(log: string, body: (url: string) => Promise<T>) => {
          if (transport === "stdio") return body("");
          const tap = await httpTap(sample.url, log);
          try {
            return await body(tap.url);
          } finally {
            await tap.close();
          }
        };
        // Codex, both revisions.
        for (const revision of wanted("codex") ? ["2025-06-18", "2026-07-28"] : []) {
          const run: Run = { host: "codex", revision, transport, tool };
          const { home, log, stdio } = prepare(run);
          await withStandIn(`codex ${revision} ${transport} ${tool}`, openAiStandIn(tool), (model) =>
            tapped(log, async (url) => {
              const modern = revision === "2026-07-28";
              const server =
                transport === "stdio"
                  ? `command = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(stdio)}\n` +
                    (modern ? 'env = { CODEX_MCP_PROTOCOL_VERSION = "2026-07-28" }\n' : "")
                  : `url = ${JSON.stringify(url)}\n`;
              fs.writeFileSync(
                path.join(home, "config.toml"),
                `model = "stand-in"\nmodel_provider = "standin"\n${modern ? "\n[features]\nmcp_2026_07_28 = true\n" : ""}\n` +
                  `[model_providers.standin]\nname = "stand-in"\nbase_url = "${model.url}/v1"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n\n` +
                  `[mcp_servers.preferences]\n${server}\n[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`,
              );
              const turn = await driveCodex(bins.codex, cwd, { ...process.env, CODEX_HOME: home }, `Please call ${tool}.`);
              judge(run, log, turn, expect);
            }),
          );
        }
        // Claude Code, both revisions.
        for (const revision of wanted("claude") ? ["2026-07-28", "2025-11-25"] : []) {
          const run: Run = { host: "claude", revision, transport, tool };
          const { home, log, stdio } = prepare(run);
          await withStandIn(`claude ${revision} ${transport} ${tool}`, anthropicStandIn(tool), (model) =>
            tapped(log, async (url) => {
              const server = transport === "stdio" ? { type: "stdio", command: process.execPath, args: stdio } : { type: "http", url };
              const config = path.join(home, "mcp.json");
              fs.writeFileSync(config, JSON.stringify({ mcpServers: { preferences: server } }));
              const env = {
                ...process.env,
                HOME: home,
                ANTHROPIC_BASE_URL: model.url,
                ANTHROPIC_API_KEY: "sk-ant-stand-in",
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
                DISABLE_AUTOUPDATER: "1",
                ...(revision === "2025-11-25" && { MCP_PROTOCOL_NEGOTIATION: "legacy" }),
              };
              const args = ["--mcp-config", config, "--strict-mcp-config", "--allowedTools", `mcp__preferences__${tool}`];
              const turn = await driveClaude(bins.claude, cwd, env, `Please call the ${tool} tool.`, args);
              judge(run, log, turn, expect);
            }),
          );
        }
        // Gemini CLI: 2025-06-18, no elicitation declared.
        if (wanted("gemini")) {
          const run: Run = { host: "gemini", revision: "2025-06-18", transport, tool };
          const { home, log, stdio } = prepare(run);
          await withStandIn(`gemini 2025-06-18 ${transport} ${tool}`, geminiStandIn(tool), (model) =>
            tapped(log, async (url) => {
              const server = transport === "stdio" ? { command: process.execPath, args: stdio } : { httpUrl: url };
              fs.mkdirSync(path.join(home, ".gemini"));
              fs.writeFileSync(
                path.join(home, ".gemini", "settings.json"),
                JSON.stringify({
                  mcpServers: { preferences: server },
                  security: { auth: { selectedType: "gemini-api-key" } },
                  general: { disableAutoUpdate: true },
                  privacy: { usageStatisticsEnabled: false },
                }),
              );
              const env = { ...process.env, HOME: home, GEMINI_API_KEY: "stand-in", GOOGLE_GEMINI_BASE_URL: model.url };
              const turn = await driveGemini(bins.gemini, cwd, env, `Please call the ${tool} tool.`);
              judge(run, log, turn, tool === "choose_preferences" ? "no-form" : "no-url");
            }),
          );
        }
        // The Inspector: mcpdo answers questions; --cli declares none.
        for (const [era, revision] of wanted("inspector")
          ? ([
              ["legacy", "2025-11-25"],
              ["modern", "2026-07-28"],
            ] as const)
          : []) {
          const env = { ...process.env, HOME: path.join(HOSTS_DIR, "homes", "inspector"), MCP_INSPECTOR_SECRET_STORE: "file" };
          fs.mkdirSync(env.HOME, { recursive: true });
          const run: Run = { host: "inspector-mcpdo", revision, transport, tool };
          const { log, stdio } = prepare(run);
          await tapped(log, async (url) => {
            try {
              judge(
                run,
                log,
                await driveMcpdo(mcpdo, env, era, transport === "stdio" ? ["--", process.execPath, ...stdio] : [url], tool),
                expect,
              );
            } catch (error) {
              check(`inspector-mcpdo ${revision} ${transport} ${tool}: mcpdo ran the call`, false, String(error).slice(0, 600));
            }
          });
          const cliRun: Run = { host: "inspector-cli", revision, transport, tool };
          const cli = prepare(cliRun);
          await tapped(cli.log, async (url) => {
            const target = transport === "stdio" ? [process.execPath, ...cli.stdio] : ["--server-url", url];
            const turn = await driveInspectorCli(bins.inspector, env, [
              "--protocol-era",
              era,
              "--format",
              "json",
              "--method",
              "tools/call",
              "--tool-name",
              tool,
              ...target,
            ]);
            const wanted =
              tool === "choose_preferences"
                ? "Missing required client capability: elicitation. "
                : "Missing required client capability: elicitation.url. ";
            check(
              `inspector-cli ${revision} ${transport} ${tool}: -32021 shown with its reason`,
              turn.final.includes(wanted),
              turn.final.slice(0, 300),
            );
          });
        }
      }
    }
  } finally {
    sample.stop();
  }
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`[hosts] the harness failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
