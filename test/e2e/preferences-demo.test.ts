// Pins `node dist/sample/preferences/demo.js --check`, the check `npm run demo -- --check` runs, on the
// compiled build (`npm test` builds first), with the official client over stdio and HTTP children:
// - exit 0, one "ok" line per workflow and transport (five workflows, ten runs, with their round
//   counts) and the one-line summary "10/10 runs passed"
// - ROUNDTRIP_MCP_DIST selects another compiled build for the server children; a build that
//   changes what the user is asked makes the check exit 1, naming transport, workflow and round,
//   while the unaffected workflows still pass
// - a ROUNDTRIP_MCP_DIST without a build in it is refused up front (exit 2)
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const DEMO = path.join(ROOT, "dist/sample/preferences/demo.js");
const BUILD = path.join(ROOT, "dist/src/index.js");

interface DemoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(env: NodeJS.ProcessEnv = {}): Promise<DemoRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [DEMO, "--check"],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

const ROUNDS: Record<string, number> = { tool: 3, resource: 3, prompt: 3, "url-consent": 6, reset: 2 };

describe("npm run demo -- --check", () => {
  let scratch: string;

  beforeAll(() => {
    if (!fs.existsSync(DEMO)) throw new Error(`${DEMO} is missing: run \`npm run build\` first (\`npm test\` does)`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "roundtrip-demo-"));
  });

  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("passes all ten runs on this checkout's build", async () => {
    const run = await runDemo({ ROUNDTRIP_MCP_DIST: "" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("framework  dist/src (this checkout's build)");
    for (const transport of ["stdio", "http"]) {
      for (const [workflow, rounds] of Object.entries(ROUNDS)) {
        expect(run.stdout).toMatch(new RegExp(`^ok   ${transport}/${workflow} \\(.*\\): ${rounds} rounds, \\d+ ms$`, "m"));
      }
    }
    expect(run.stdout).not.toContain("FAIL");
    expect(run.stdout).toMatch(
      /^summary: 10\/10 runs passed in \d+\.\d s \| stdio: tool 3 rounds \d+ ms, .* \| http: .*reset 2 rounds \d+ ms$/m,
    );
  });

  it("checks the build ROUNDTRIP_MCP_DIST names, and names the workflow and round that deviate", async () => {
    // A "build" that re-exports this one but drops the colour from the style question's message.
    const build = path.join(scratch, "altered");
    fs.mkdirSync(build);
    fs.writeFileSync(
      path.join(build, "index.js"),
      `const real = require(${JSON.stringify(BUILD)});\n` +
        `module.exports = { ...real, Elicit: (key, source, options) => real.Elicit(key, source, key === "style" ? { ...options, message: "Which style?" } : options) };\n`,
    );
    // Its other entry points are this build's (the HTTP entry imports roundtrip-mcp/stores).
    fs.mkdirSync(path.join(build, "stores"));
    fs.writeFileSync(
      path.join(build, "stores", "index.js"),
      `module.exports = require(${JSON.stringify(path.join(path.dirname(BUILD), "stores"))});\n`,
    );
    const run = await runDemo({ ROUNDTRIP_MCP_DIST: build });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`framework  ${build} (ROUNDTRIP_MCP_DIST)`);
    for (const transport of ["stdio", "http"]) {
      expect(run.stdout).toContain(
        `FAIL ${transport}/tool (tools/call choose_preferences) round 2: style: message "Which style?", expected "Which green style?"`,
      );
      expect(run.stdout).toContain(
        `FAIL ${transport}/resource (resources/read preferences://work/summary) round 2: style: message "Which style?", expected "Which blue style?"`,
      );
      expect(run.stdout).toContain(
        `FAIL ${transport}/prompt (prompts/get preferences_prompt) round 2: style: message "Which style?", expected "Which red style?"`,
      );
      expect(run.stdout).toMatch(new RegExp(`^ok   ${transport}/url-consent `, "m"));
      expect(run.stdout).toMatch(new RegExp(`^ok   ${transport}/reset `, "m"));
    }
    expect(run.stdout).toMatch(/^summary: 4\/10 runs passed /m);
  });

  it("refuses a ROUNDTRIP_MCP_DIST that holds no build", async () => {
    const run = await runDemo({ ROUNDTRIP_MCP_DIST: path.join(scratch, "nothing-here") });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no index.js there");
    expect(run.stdout).toBe("");
  });
});
