// Pins that telemetry and pino cost nothing unless asked for:
// - a compiled app without the telemetry option, called in a real child process, never loads
//   @opentelemetry/api (nor pino without pinoLogger): neither is in require.cache afterwards;
//   with `telemetry: true` the API is loaded, with pinoLogger pino is (so the check can fail);
//   jose (OAuth) is loaded only when a jwtVerifier is made
// - without the option, a call makes no span even with a global tracer provider registered
//   (the dispatcher never asks for a tracer); with it, exactly one
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createTestClient } from "../../src/testing/index";
import { createTelemetryApp } from "./fixtures/telemetry-app";

const ROOT = path.resolve(__dirname, "../..");
const FIXTURE = path.join(ROOT, "dist/test/e2e/fixtures/telemetry-app.js");

const SCRIPT = `
const path = require("node:path");
const { createTelemetryApp } = require(${JSON.stringify(FIXTURE)});
const { createTestClient } = require(${JSON.stringify(path.join(ROOT, "dist/src/testing/index.js"))});
const { pinoLogger, jwtVerifier } = require(${JSON.stringify(path.join(ROOT, "dist/src/index.js"))});
(async () => {
  const mode = process.argv[1];
  if (mode === "oauth") jwtVerifier({ issuer: "http://127.0.0.1:9/issuer", jwksUri: "http://127.0.0.1:9/jwks" });
  const app = createTelemetryApp({
    ...(mode === "telemetry" && { telemetry: true }),
    ...(mode === "pino" && { logger: pinoLogger({ level: "error" }) }),
  });
  const client = await createTestClient(app);
  const text = (await client.callTool("echo", { n: 4 })).text;
  await client.close();
  await app.close();
  const loaded = (name) => Object.keys(require.cache).some((file) => file.includes(path.sep + "node_modules" + path.sep + name + path.sep));
  console.log(JSON.stringify({ text, otel: loaded("@opentelemetry"), pino: loaded("pino"), jose: loaded("jose") }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/**
 * Safety nets only (each child is waited for until it exits): on a loaded machine one child, which
 * loads the whole package and the SDK, takes about 10 s of wall time for under 1 s of CPU.
 */
const CHILD_TIMEOUT_MS = 90_000;
const TEST_TIMEOUT_MS = 120_000;

async function runChild(mode: string): Promise<{ text: string; otel: boolean; pino: boolean; jose: boolean }> {
  if (!fs.existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", SCRIPT, mode], { cwd: ROOT, timeout: CHILD_TIMEOUT_MS });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("telemetry off costs nothing", () => {
  it(
    "never loads @opentelemetry/api, pino or jose unless the app asks for them",
    async () => {
      // Four independent processes, run side by side.
      const [plain, telemetry, pino, oauth] = await Promise.all(["plain", "telemetry", "pino", "oauth"].map(runChild));
      expect(plain).toEqual({ text: "echo 4", otel: false, pino: false, jose: false });
      expect(telemetry).toEqual({ text: "echo 4", otel: true, pino: false, jose: false });
      expect(pino).toEqual({ text: "echo 4", otel: false, pino: true, jose: false });
      expect(oauth).toEqual({ text: "echo 4", otel: false, pino: false, jose: true });
    },
    TEST_TIMEOUT_MS,
  );

  it("makes no span without the option, even with a global tracer provider registered", async () => {
    const spans = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const getTracer = jest.spyOn(provider, "getTracer");
    expect(trace.setGlobalTracerProvider(provider)).toBe(true);
    try {
      for (const telemetry of [undefined, true] as const) {
        const app = createTelemetryApp(telemetry === undefined ? {} : { telemetry });
        const client = await createTestClient(app);
        expect((await client.callTool("echo", { n: 1 })).text).toBe("echo 1");
        await client.close();
        await app.close();
        expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(telemetry === undefined ? [] : ["tools/call echo"]);
        expect(getTracer).toHaveBeenCalledTimes(telemetry === undefined ? 0 : 1);
      }
    } finally {
      trace.disable();
    }
  });
});
