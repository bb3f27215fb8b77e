/**
 * Runs the client libraries that need Node 22 against the preferences sample: Mastra's MCP client
 * (@mastra/mcp, pinned in ./package.json with the Node 22 binary it runs on).
 *
 *   npm run test:clients     (builds first; CI runs it from .ci/run)
 *
 * 1. installs ./node_modules with `npm ci` when it is missing or older than the lock file (the
 *    framework stays on Node 20: `npm test` never installs or downloads this);
 * 2. starts the compiled sample over HTTP (`node dist/sample/preferences/main-http.js`, PORT=0) and
 *    waits for the line naming its URL;
 * 3. runs ./mastra-flow.mjs with the Node 22 binary from ./node_modules/node: over that URL and over
 *    stdio (this Node running dist/sample/preferences/main-stdio.js), Mastra lists the tools, runs
 *    choose_preferences through its inputRequests handler and preview_theme's URL consent;
 * 4. checks each outcome, prints one line per check and "N passed, N failed", and exits 0 only when
 *    every check passed (1 otherwise, 2 when the harness itself failed).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { isDeepStrictEqual } from "node:util";

const DIR = __dirname;
const REPO = path.resolve(DIR, "..", "..");
const NODE22 = path.join(DIR, "node_modules", "node", "bin", "node");
const STAMP = path.join(DIR, "node_modules", ".roundtrip-install-stamp");
const HTTP_SAMPLE = path.join(REPO, "dist", "sample", "preferences", "main-http.js");
const STDIO_SAMPLE = path.join(REPO, "dist", "sample", "preferences", "main-stdio.js");
const READY_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 180_000;

class HarnessError extends Error {}

function fingerprint(): string {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(fs.readFileSync(path.join(DIR, file)));
  return hash.digest("hex");
}

function install(): void {
  const current = fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === fingerprint() && fs.existsSync(NODE22);
  if (current) return;
  process.stderr.write(`[clients] installing the pinned client libraries (npm ci in ${DIR}) ...\n`);
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: DIR, encoding: "utf8" });
  if (npm.error || npm.status !== 0) throw new HarnessError(`npm ci failed in ${DIR}: ${npm.stderr ?? npm.error?.message}`);
  const version = spawnSync(NODE22, ["--version"], { encoding: "utf8" });
  if (!/^v22\./.test(version.stdout ?? ""))
    throw new HarnessError(`${NODE22} is not a Node 22 binary (got: ${version.stdout || version.error})`);
  fs.writeFileSync(STAMP, fingerprint());
}

/** Starts the HTTP sample; resolves with its URL and a stop function. */
async function startHttpSample(): Promise<{ url: string; stop: () => void }> {
  if (!fs.existsSync(HTTP_SAMPLE)) throw new HarnessError(`${HTTP_SAMPLE} is missing: run npm run build first (npm run test:clients does)`);
  const child = spawn(process.execPath, [HTTP_SAMPLE], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "ignore"] });
  const stop = () => void child.kill("SIGTERM");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new HarnessError("the HTTP sample printed no URL in time")), READY_TIMEOUT_MS);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      const found = /http:\/\/\S+/.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    child.on("exit", (code) => reject(new HarnessError(`the HTTP sample exited (${code}) before listening`)));
  }).catch((error: unknown) => (stop(), Promise.reject(error)));
  return { url, stop };
}

function runMastra(url: string): Record<string, unknown>[] {
  const run = spawnSync(NODE22, [path.join(DIR, "mastra-flow.mjs")], {
    env: { ...process.env, SAMPLE_URL: url, SAMPLE_STDIO: STDIO_SAMPLE, SERVER_NODE: process.execPath },
    encoding: "utf8",
    timeout: RUN_TIMEOUT_MS,
  });
  if (run.status !== 0) throw new HarnessError(`mastra-flow.mjs exited ${run.status ?? run.error?.message}:\n${run.stderr}`);
  return run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const EXPECTED_ASKED = [
  { key: "color", mode: "form", message: "Which colour do you prefer?" },
  { key: "style", mode: "form", message: "Which green style?" },
  { key: "consent", mode: "url", message: "Open the theme preview in your browser?" },
];

async function main(): Promise<number> {
  install();
  const sample = await startHttpSample();
  let outcomes: Record<string, unknown>[];
  try {
    outcomes = runMastra(sample.url);
  } finally {
    sample.stop();
  }
  let passed = 0;
  let failed = 0;
  const check = (name: string, ok: boolean, detail: unknown) => {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${JSON.stringify(detail)}`}`);
  };
  for (const transport of ["http", "stdio"]) {
    const outcome = outcomes.find((o) => o.transport === transport);
    const label = `@mastra/mcp 2.0.0 over ${transport}`;
    check(`${label}: ran`, outcome !== undefined && outcome.error === undefined, outcome?.error ?? "no outcome");
    if (outcome === undefined || outcome.error !== undefined) continue;
    check(`${label}: speaks 2026-07-28`, outcome.protocolVersion === "2026-07-28", outcome.protocolVersion);
    check(
      `${label}: lists the sample's tools`,
      // Every tool the sample lists, the view's two included: style_options is app-only, which a
      // host that renders views hides from its model; Mastra renders none, so it lists it as any tool.
      isDeepStrictEqual(outcome.tools, [
        "prefs_choose_preferences",
        "prefs_preview_theme",
        "prefs_reset_preferences",
        "prefs_show_theme",
        "prefs_style_options",
      ]),
      outcome.tools,
    );
    check(`${label}: is asked colour, style, then URL consent`, isDeepStrictEqual(outcome.asked, EXPECTED_ASKED), outcome.asked);
    check(`${label}: completes choose_preferences`, isDeepStrictEqual(outcome.result, { color: "green", style: "forest" }), outcome.result);
    check(
      `${label}: completes preview_theme's consent`,
      isDeepStrictEqual(outcome.consent, { consent: "accept", verified: false }),
      outcome.consent,
    );
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof HarnessError ? 2 : 1);
  },
);
