// Pins what a stdio server loads and answers before its first answer (issue 24 item 3), in real
// child processes of the compiled code:
// - the preferences sample answers its opening server/discover with neither the SDK
//   (@modelcontextprotocol/*), zod nor ajv loaded, nor the HTTP wing (server/app-http.ts), the
//   tasks extension (tasks-parts.ts, the stores), class-transformer's entry or the OpenTelemetry
//   code, and the tools/list and tools/call a host sends next too; the SDK is loaded afterwards
//   (by a request that needs it, or the warm-up after 20 ms of quiet); an app that uses those
//   parts is seen loading them (so the check can fail);
// - once the lane answered the first request (the SDK's entry saw none), the rest of the
//   connection is answered byte for byte as the SDK path answers it (the lane off);
// - the opening discover answered without the SDK is byte-equal to the SDK path's answer (the lane
//   off: ROUNDTRIP_FAST_LANE=off), for a bare envelope, one with client info and capabilities, an
//   app with a title and instructions, and an envelope outside the subset answered here (the SDK
//   path answers it, loaded first);
// - an initialize after that discover still opens a 2025 session (the host's fallback), as after
//   the SDK's own discover answer;
// - every envelope the opening answer accepts is one the SDK's envelope validation accepts.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { OpeningDiscover } from "../../src/server/stdio/opening-discover";

const ROOT = path.resolve(__dirname, "../..");
const SAMPLE = path.join(ROOT, "dist/sample/preferences/main-stdio.js");
const FEATURE = path.join(ROOT, "dist/test/e2e/fixtures/feature-app.js");
const TESTING = path.join(ROOT, "dist/src/testing/index.js");
const V = "io.modelcontextprotocol/protocolVersion";
const CAPS = "io.modelcontextprotocol/clientCapabilities";
const INFO = "io.modelcontextprotocol/clientInfo";

/** A child's hook: at each stdout write, the packages loaded so far, on stderr. */
const HOOK = `
const path = require("node:path");
const has = (name) => Object.keys(require.cache).some((file) => file.includes(path.sep + "node_modules" + path.sep + name + path.sep));
const own = (file) => Object.keys(require.cache).some((f) => f.endsWith(path.join("dist", "src", file)));
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const loaded = {
    sdk: has("@modelcontextprotocol"),
    zod: has("zod"),
    ajv: has("ajv"),
    httpWing: own("server/app-http.js") || own("server/http/http-listener.js"),
    tasks: own("features/tasks/tasks-parts.js") || own("stores/open-task-store.js"),
    classTransformer: Object.keys(require.cache).some((f) => f.endsWith(path.join("class-transformer", "cjs", "index.js"))),
    telemetry: own("dispatch/telemetry/open-telemetry.js"),
  };
  process.stderr.write("LOADED " + JSON.stringify(loaded) + "\\n");
  return write(chunk, ...rest);
};
`;

const SAMPLE_SCRIPT = `${HOOK}\nrequire(${JSON.stringify(SAMPLE)});`;
const FEATURE_SCRIPT = `${HOOK}
const { createFeatureApp } = require(${JSON.stringify(FEATURE)});
const { SilentLogger } = require(${JSON.stringify(TESTING)});
createFeatureApp({ logger: new SilentLogger(), title: "Feature \\"app\\"", instructions: "Use greet first.\\nThen add." }).serveStdio();
`;

/** What the hook reports: the SDK, zod and ajv, and the parts of our own a stdio answer does not need. */
interface Loaded {
  readonly sdk: boolean;
  readonly zod: boolean;
  readonly ajv: boolean;
  readonly httpWing: boolean;
  readonly tasks: boolean;
  readonly classTransformer: boolean;
  readonly telemetry: boolean;
}
const NOTHING_DEFERRED: Loaded = {
  sdk: false,
  zod: false,
  ajv: false,
  httpWing: false,
  tasks: false,
  classTransformer: false,
  telemetry: false,
};

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  /** The next stdout line. */
  line(): Promise<string>;
  /** What the hook saw loaded at the first answer. */
  loaded: Promise<Loaded>;
  /** What the hook saw loaded at the first `count` answers. */
  loadedAt(count: number): Promise<Loaded[]>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function start(script: string, env: Record<string, string> = {}): Child {
  for (const file of [SAMPLE, FEATURE, TESTING])
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const child = spawn(process.execPath, ["-e", script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const seen: Loaded[] = [];
  const seenWaiters: (() => void)[] = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (!line.startsWith("LOADED ")) return;
    seen.push(JSON.parse(line.slice(7)) as Loaded);
    for (const wake of seenWaiters.splice(0)) wake();
  });
  const loadedAt = async (count: number): Promise<Loaded[]> => {
    while (seen.length < count) await new Promise<void>((resolve) => seenWaiters.push(resolve));
    return seen.slice(0, count);
  };
  const loaded = loadedAt(1).then((first) => first[0]!);
  return {
    process: child,
    line: () => {
      const next = lines.shift();
      return next !== undefined ? Promise.resolve(next) : new Promise((resolve) => waiting.push(resolve));
    },
    loaded,
    loadedAt,
  };
}

function send(child: Child, message: object): void {
  child.process.stdin.write(`${JSON.stringify(message)}\n`);
}

const request = (id: number, method: string, meta: object, params: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: meta },
});

const BARE = { [V]: "2026-07-28", [CAPS]: {} };
const HOST = {
  [V]: "2026-07-28",
  [INFO]: { name: "host", version: "1.2.3", title: "A host" },
  [CAPS]: {
    roots: { listChanged: true },
    sampling: { tools: {} },
    elicitation: { form: { applyDefaults: true }, url: {} },
    extensions: { x: {} },
  },
};
/** Outside the subset answered without the SDK (a tasks capability): the SDK path answers it. */
const OTHER = { [V]: "2026-07-28", [CAPS]: { tasks: { list: {} } } };

async function discoverLine(script: string, meta: object, env: Record<string, string> = {}): Promise<string> {
  const child = start(script, env);
  send(child, request(7, "server/discover", meta));
  return child.line();
}

/** The SDK's own classifier (as the fast lane asks it): is this a valid 2026-07-28 request envelope? */
function sdkAccepts(meta: object): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: "2026-07-28",
    mcpMethodHeader: "server/discover",
    body: request(1, "server/discover", meta),
  } as never) as { kind: string };
  return outcome.kind === "modern";
}

describe("stdio startup", () => {
  it("answers the opening discover of the preferences sample before loading the SDK, zod or ajv, then serves tools", async () => {
    const child = start(SAMPLE_SCRIPT);
    send(child, request(1, "server/discover", BARE));
    expect(JSON.parse(await child.line())).toMatchObject({ id: 1, result: { supportedVersions: ["2026-07-28"] } });
    expect(await child.loaded).toEqual(NOTHING_DEFERRED);
    send(child, request(2, "tools/list", BARE));
    const list = JSON.parse(await child.line()) as { id: number; result: { tools: { name: string }[] } };
    expect(list.id).toBe(2);
    expect(list.result.tools.map((t) => t.name)).toContain("reset_preferences");
    send(child, request(3, "tools/call", BARE, { name: "reset_preferences", arguments: {} }));
    expect(JSON.parse(await child.line())).toMatchObject({ id: 3, result: { resultType: "input_required" } });
  });

  it("answers a host's opening discover, tools/list and tools/call, sent together, without loading the SDK", async () => {
    const child = start(SAMPLE_SCRIPT);
    child.process.stdin.write(
      [
        request(1, "server/discover", HOST),
        request(2, "tools/list", HOST),
        request(3, "tools/call", HOST, { name: "reset_preferences", arguments: {} }),
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(""),
    );
    const answers = [await child.line(), await child.line(), await child.line()].map((line) => JSON.parse(line) as { id: number });
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3]);
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect(byId.get(2)).toMatchObject({
      result: { tools: expect.arrayContaining([expect.objectContaining({ name: "reset_preferences" })]) },
    });
    expect(byId.get(3)).toMatchObject({ result: { resultType: "input_required" } });
    expect(await child.loadedAt(3)).toEqual([NOTHING_DEFERRED, NOTHING_DEFERRED, NOTHING_DEFERRED]);
    // A request the lane leaves to the SDK path (a progress token) is answered by the SDK, loaded then.
    send(child, request(4, "tools/call", { ...HOST, progressToken: 9 }, { name: "reset_preferences", arguments: {} }));
    expect(JSON.parse(await child.line())).toMatchObject({ id: 4, result: { resultType: "input_required" } });
    expect((await child.loadedAt(4))[3]).toMatchObject({ sdk: true });
  });

  // The lane answered the first modern request, so the SDK's entry never saw it: it is pinned to
  // the modern era before it is handed anything (by the next request it must see, or by the
  // warm-up after 20 ms of quiet). Everything after is answered as when the SDK path served the
  // whole connection (the lane off): the SDK path's requests, a late initialize refused as on a
  // modern connection, a later discover, and a client's request that happens to use the pin's id.
  it.each([
    ["the SDK attached by the first request it must see", 0],
    ["the SDK attached by the warm-up", 300],
  ])("answers the rest of the connection as the SDK path does after the lane answered its first request: %s", async (_, pauseMs) => {
    const transcript = async (env: Record<string, string>): Promise<string[]> => {
      const child = start(SAMPLE_SCRIPT, env);
      const lines: string[] = [];
      const ask = async (message: object) => {
        send(child, message);
        lines.push((await child.line()).replace(/rt3\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "<requestState>"));
      };
      await ask(request(1, "server/discover", HOST));
      await ask(request(2, "tools/list", HOST));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      await ask(request(3, "tools/call", { ...HOST, progressToken: 1 }, { name: "reset_preferences", arguments: {} }));
      await ask(request(4, "tools/call", HOST, { name: "reset_preferences", arguments: {} }));
      await ask({
        jsonrpc: "2.0",
        id: 5,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "late", version: "1" } },
      });
      await ask({ jsonrpc: "2.0", id: "roundtrip-mcp/era-pin", method: "roundtrip-mcp/era-pin", params: { _meta: HOST } });
      await ask(request(7, "server/discover", HOST));
      return lines;
    };
    const [fast, sdk] = await Promise.all([transcript({}), transcript({ ROUNDTRIP_FAST_LANE: "off" })]);
    expect(fast).toEqual(sdk);
    expect(fast.map((line) => JSON.parse(line) as { id: unknown; error?: { code: number } })).toMatchObject([
      { id: 1 },
      { id: 2 },
      { id: 3 },
      { id: 4 },
      { id: 5, error: { code: -32022 } },
      { id: "roundtrip-mcp/era-pin", error: { code: -32601 } },
      { id: 7 },
    ]);
  });

  it("loads them before the first answer with the lane off (the check can fail)", async () => {
    const child = start(SAMPLE_SCRIPT, { ROUNDTRIP_FAST_LANE: "off" });
    send(child, request(1, "server/discover", BARE));
    await child.line();
    expect(await child.loaded).toMatchObject({ sdk: true, zod: true, ajv: false });
  });

  it("sees the HTTP wing, the tasks extension and class-transformer once an app uses them (the check can fail)", async () => {
    const script = `${HOOK}
const { McpApp, tasks } = require(${JSON.stringify(path.join(ROOT, "dist/src/index.js"))});
const { SilentLogger } = require(${JSON.stringify(TESTING)});
require("class-transformer");
tasks();
const app = McpApp.create({ logger: new SilentLogger(), state: { ephemeral: true } });
app.healthHandler();
app.serveStdio();
`;
    const child = start(script);
    send(child, request(1, "server/discover", BARE));
    await child.line();
    expect(await child.loaded).toEqual({ ...NOTHING_DEFERRED, httpWing: true, tasks: true, classTransformer: true });
  });

  it.each([
    ["a bare envelope", SAMPLE_SCRIPT, BARE],
    ["client info and capabilities", SAMPLE_SCRIPT, HOST],
    ["an app with a title and instructions", FEATURE_SCRIPT, HOST],
    ["an envelope the SDK path answers", FEATURE_SCRIPT, OTHER],
  ])("answers the opening discover with the SDK path's bytes: %s", async (_, script, meta) => {
    const [fast, sdk] = await Promise.all([discoverLine(script, meta), discoverLine(script, meta, { ROUNDTRIP_FAST_LANE: "off" })]);
    expect(fast).toBe(sdk);
    expect(JSON.parse(fast)).toMatchObject({ id: 7, result: { resultType: "complete" } });
  });

  it("opens a 2025 session on an initialize after the discover it answered (the host's fallback)", async () => {
    const child = start(FEATURE_SCRIPT);
    send(child, request(1, "server/discover", BARE));
    await child.line();
    expect(await child.loaded).toMatchObject({ sdk: false });
    send(child, {
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect(JSON.parse(await child.line())).toMatchObject({ id: 2, result: { protocolVersion: "2025-11-25" } });
  });

  it("accepts only envelopes the SDK's envelope validation accepts", () => {
    const opening = new OpeningDiscover({}, { serverInfo: { name: "n", version: "1" } });
    const metas: object[] = [
      BARE,
      HOST,
      OTHER,
      { [V]: "2026-07-28" },
      { [V]: "2025-11-25", [CAPS]: {} },
      { ...BARE, [INFO]: { name: "n" } },
      { ...BARE, [INFO]: { name: "n", version: "1", icons: [] } },
      { [V]: "2026-07-28", [CAPS]: { roots: { listChanged: "yes" } } },
      { [V]: "2026-07-28", [CAPS]: { elicitation: { form: { applyDefaults: 1 } } } },
      { [V]: "2026-07-28", [CAPS]: { sampling: true } },
      { [V]: "2026-07-28", [CAPS]: { experimental: { a: {} }, elicitation: {} } },
      { ...BARE, "io.modelcontextprotocol/logLevel": "debug" },
      { ...BARE, progressToken: 1 },
    ];
    const verdicts = metas.map((meta) => ({
      taken: opening.take(request(1, "server/discover", meta)) !== undefined,
      valid: sdkAccepts(meta),
    }));
    for (const verdict of verdicts) if (verdict.taken) expect(verdict.valid).toBe(true);
    // The classifier can refuse (so the check above can fail).
    expect(verdicts.map((v) => v.valid)).toContain(false);
    expect(verdicts.map((v) => v.taken)).toEqual([true, true, false, false, false, false, false, false, false, false, true, false, false]);
    expect(opening.take({ ...request(1, "server/discover", BARE), extra: 1 })).toBeUndefined();
    expect(opening.take(request(1, "tools/list", BARE))).toBeUndefined();
  });
});
