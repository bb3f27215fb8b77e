/**
 * Consumer smoke test: the package, installed into a new application written exactly as
 * docs/getting-started.md says, builds, passes that application's own jest test (which uses
 * roundtrip-mcp/testing) and serves. It fails whenever the guide and the package disagree.
 *
 *   npm run test:consumer        (CI runs it after npm test; it may download packages, npm test never does)
 *
 * 1. `npm pack` this checkout (its prepare script builds first) into a temporary directory;
 * 2. writes the app's files from the guide's own captioned code blocks (test/support/guide-app.ts),
 *    with the tarball beside package.json under the name the guide's package.json installs;
 * 3. in the app: `npm install --prefer-offline --no-audit --no-fund`, `npm run build` (tsc),
 *    `npm test` (the app's jest), then `npm start` with PORT=0: waits for the "listening on" line
 *    and sends a tools/list to that URL, which must list the guide's greet tool.
 * Exits 0 and removes the directory on success; exits 1 and keeps it (path printed) on failure.
 * KEEP_CONSUMER_APP=1 keeps it on success too.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, GUIDE, packedTarballName, readGuideApp } from "../support/guide-app";
import { meta, rpc } from "../support/raw-http";

const START_TIMEOUT_MS = 20_000;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** The environment of the app's npm commands: ours, without what `npm run` set for this package. */
const APP_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));

class StepFailure extends Error {}

function step(label: string, cwd: string, args: string[]): void {
  const started = Date.now();
  console.log(`\n== ${label}: npm ${args.join(" ")}  (in ${cwd})`);
  const run = spawnSync(NPM, args, { cwd, env: cwd === REPO_ROOT ? process.env : APP_ENV, stdio: "inherit" });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) throw new StepFailure(`${label} failed (npm ${args.join(" ")} exited ${run.status ?? run.signal}) after ${seconds} s`);
  console.log(`== ${label}: ok in ${seconds} s`);
}

function writeApp(app: string, tarballDir: string): void {
  const files = readGuideApp();
  if (files.length === 0) throw new StepFailure(`${GUIDE} has no captioned files`);
  for (const file of files) {
    const target = path.join(app, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.text);
    console.log(`   wrote ${file.path} (${GUIDE}:${file.line})`);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(app, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const spec = pkg.dependencies?.["roundtrip-mcp"];
  const packed = packedTarballName();
  if (spec !== `file:${packed}`) throw new StepFailure(`the guide's package.json installs roundtrip-mcp from ${JSON.stringify(spec)}, but npm pack wrote ${packed}`);
  fs.renameSync(path.join(tarballDir, packed), path.join(app, packed));
  console.log(`   placed ${packed} beside package.json`);
}

/** `npm start` with PORT=0: the "listening on" URL must answer tools/list with the greet tool. */
async function startAndCall(app: string): Promise<void> {
  console.log(`\n== start: npm start  (PORT=0, in ${app})`);
  const started = Date.now();
  const child = spawn(NPM, ["start"], { cwd: app, env: { ...APP_ENV, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new StepFailure(`npm start printed no "listening on" line within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new StepFailure(`npm start exited ${code} before listening:\n${output}`));
      });
    });
    const response = await rpc(url, "tools/list", { _meta: meta() });
    const tools = ((response.body?.result as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name);
    if (response.status !== 200 || !tools.includes("greet")) {
      throw new StepFailure(`tools/list at ${url} answered ${response.status} ${JSON.stringify(response.body)}`);
    }
    console.log(`   ${url} lists ${tools.join(", ")}`);
    console.log(`== start: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    child.removeAllListeners("exit");
    try {
      process.kill(-child.pid!, "SIGTERM"); // npm and the node process it started
    } catch {
      // already gone
    }
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "roundtrip-mcp-consumer-"));
  const app = path.join(tmp, "greeter");
  fs.mkdirSync(app);
  try {
    step("pack", REPO_ROOT, ["pack", "--pack-destination", tmp, "--silent"]);
    console.log(`\n== app: files from ${GUIDE}`);
    writeApp(app, tmp);
    step("install", app, ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
    step("build", app, ["run", "build"]);
    step("test", app, ["test"]);
    await startAndCall(app);
  } catch (error) {
    console.error(`\nconsumer smoke test FAILED: ${(error as Error).message}\nthe app is kept in ${app}`);
    return 1;
  }
  console.log(`\nconsumer smoke test passed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${GUIDE} and the packed package agree`);
  if (process.env.KEEP_CONSUMER_APP) console.log(`the app is kept in ${app}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  return 0;
}

main().then((code) => process.exit(code));
