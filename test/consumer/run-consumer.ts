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
 * 3. in the app: `npm install --prefer-offline --no-audit --no-fund`, timed; then checks that it
 *    installed no native module (no better-sqlite3, no pg, no @types/pg, no .node file or
 *    binding.gyp anywhere in node_modules: the drivers are optional peers) and that the package's
 *    .d.ts files reference no driver's types, and prints the install's time and node_modules size
 *    (the README's figures); `npm run build` (tsc), `npm test` (the app's jest), then `npm start`
 *    with PORT=0: waits for the "listening on" line and sends a tools/list to that URL, which must
 *    list the guide's greet tool;
 * 4. the guide's ES-module app ("type": "module", nodenext) beside it, from the same tarball:
 *    install, `npm run build`, `npm run check` (imports every entry point and runs a flow with the
 *    kit), which must print "esm check: Hello, Ada!".
 * Exits 0 and removes the directory on success; exits 1 and keeps it (path printed) on failure.
 * KEEP_CONSUMER_APP=1 keeps it on success too.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, GUIDE, packedTarballName, readGuideApp, type GuideAppKind } from "../support/guide-app";
import { meta, rpc } from "../support/raw-http";

const START_TIMEOUT_MS = 20_000;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** The environment of the app's npm commands: ours, without what `npm run` set for this package. */
const APP_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));

class StepFailure extends Error {}

/** Runs one npm command; returns its stdout (also echoed) and how long it took, in seconds. */
function step(label: string, cwd: string, args: string[]): { stdout: string; seconds: number } {
  const started = Date.now();
  console.log(`\n== ${label}: npm ${args.join(" ")}  (in ${cwd})`);
  const run = spawnSync(NPM, args, {
    cwd,
    env: cwd === REPO_ROOT ? process.env : APP_ENV,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout ?? "");
  const seconds = (Date.now() - started) / 1000;
  if (run.status !== 0)
    throw new StepFailure(`${label} failed (npm ${args.join(" ")} exited ${run.status ?? run.signal}) after ${seconds.toFixed(1)} s`);
  console.log(`== ${label}: ok in ${seconds.toFixed(1)} s`);
  return { stdout: run.stdout ?? "", seconds };
}

/** Every file under `dir`, recursively (symbolic links not followed). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/**
 * A plain app installs no native module through roundtrip-mcp and compiles nothing: no driver
 * (they are optional peer dependencies), no addon in the production tree (`npm ls --omit=dev`),
 * no node-gyp output anywhere; and the package's declarations name no driver's types. jest's own
 * prebuilt binaries (devDependencies) are listed, not refused. Prints the install's figures.
 */
function checkLeanInstall(app: string, seconds: number): void {
  const modules = path.join(app, "node_modules");
  const present = ["better-sqlite3", "pg", "@types/pg", "@types/better-sqlite3"].filter((name) => fs.existsSync(path.join(modules, name)));
  if (present.length > 0)
    throw new StepFailure(`the app installed ${present.join(", ")}, which only an app using a task store should install`);
  const files = filesUnder(modules);
  const isNative = (f: string) => f.endsWith(".node") || path.basename(f) === "binding.gyp";
  const compiled = files.filter((f) => f.endsWith(".node") && /[\\/]build[\\/](Release|Debug)[\\/]/.test(f));
  if (compiled.length > 0)
    throw new StepFailure(
      `the install compiled native code: ${compiled
        .slice(0, 5)
        .map((f) => path.relative(app, f))
        .join(", ")}`,
    );
  const listed = spawnSync(NPM, ["ls", "--omit=dev", "--all", "--parseable"], { cwd: app, env: APP_ENV, encoding: "utf8" });
  const production = (listed.stdout ?? "")
    .split("\n")
    .filter((dir) => dir !== "" && path.resolve(dir) !== path.resolve(app))
    .map((dir) => path.resolve(dir) + path.sep);
  if (production.length === 0)
    throw new StepFailure(`npm ls --omit=dev listed no production package (exit ${listed.status}): ${listed.stderr}`);
  const inProduction = (f: string) =>
    production.some((dir) => f.startsWith(dir) && !f.slice(dir.length).includes(`node_modules${path.sep}`));
  const native = files.filter(isNative);
  const productionNative = native.filter(inProduction);
  if (productionNative.length > 0)
    throw new StepFailure(
      `roundtrip-mcp's dependencies installed native code: ${productionNative
        .slice(0, 5)
        .map((f) => path.relative(app, f))
        .join(", ")}`,
    );
  const declarations = files.filter((f) => f.includes(`${path.sep}roundtrip-mcp${path.sep}dist${path.sep}`) && f.endsWith(".d.ts"));
  const typed = declarations.filter((f) => /from "(pg|better-sqlite3)"|import\("(pg|better-sqlite3)"\)/.test(fs.readFileSync(f, "utf8")));
  if (declarations.length === 0) throw new StepFailure("the installed roundtrip-mcp has no .d.ts files");
  if (typed.length > 0)
    throw new StepFailure(
      `roundtrip-mcp's declarations reference a driver's types: ${typed.map((f) => path.relative(modules, f)).join(", ")}`,
    );
  const size = (list: string[]) => (list.reduce((sum, f) => sum + fs.statSync(f).size, 0) / 1e6).toFixed(1);
  const productionFiles = files.filter(inProduction);
  console.log(
    `   lean install: ${new Set(production).size} production packages (${size(productionFiles)} MB) and ${size(files)} MB in node_modules in all ` +
      `(${files.length} files), installed in ${seconds.toFixed(1)} s; no better-sqlite3, pg or @types/pg, nothing compiled, ` +
      `no native file among roundtrip-mcp's dependencies; ${declarations.length} .d.ts files of roundtrip-mcp, none naming a driver`,
  );
  const devNative = native.map((f) => path.relative(modules, f).split(path.sep).join("/"));
  if (devNative.length > 0) console.log(`   prebuilt native files of the dev tools (jest): ${devNative.join(", ")}`);
}

function writeApp(app: string, tarballDir: string, kind: GuideAppKind = "commonjs"): void {
  const files = readGuideApp(kind);
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
  if (spec !== `file:${packed}`)
    throw new StepFailure(`the guide's package.json installs roundtrip-mcp from ${JSON.stringify(spec)}, but npm pack wrote ${packed}`);
  fs.copyFileSync(path.join(tarballDir, packed), path.join(app, packed));
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
      const timer = setTimeout(
        () => reject(new StepFailure(`npm start printed no "listening on" line within ${START_TIMEOUT_MS / 1000} s:\n${output}`)),
        START_TIMEOUT_MS,
      );
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
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
  const esmApp = path.join(tmp, "greeter-esm");
  fs.mkdirSync(app);
  fs.mkdirSync(esmApp);
  try {
    step("pack", REPO_ROOT, ["pack", "--pack-destination", tmp, "--silent"]);
    console.log(`\n== app: files from ${GUIDE}`);
    writeApp(app, tmp);
    const installed = step("install", app, ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
    checkLeanInstall(app, installed.seconds);
    step("build", app, ["run", "build"]);
    step("test", app, ["test"]);
    await startAndCall(app);
    console.log(`\n== esm app: files from ${GUIDE} (ESM)`);
    writeApp(esmApp, tmp, "esm");
    step("esm install", esmApp, ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
    step("esm build", esmApp, ["run", "build"]);
    const checked = step("esm check", esmApp, ["run", "--silent", "check"]);
    if (!checked.stdout.includes("esm check: Hello, Ada!"))
      throw new StepFailure(`npm run check printed ${JSON.stringify(checked.stdout)}, not "esm check: Hello, Ada!"`);
  } catch (error) {
    console.error(`\nconsumer smoke test FAILED: ${(error as Error).message}\nthe apps are kept in ${tmp}`);
    return 1;
  }
  console.log(`\nconsumer smoke test passed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${GUIDE} and the packed package agree`);
  if (process.env.KEEP_CONSUMER_APP) console.log(`the apps are kept in ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  return 0;
}

main().then((code) => process.exit(code));
