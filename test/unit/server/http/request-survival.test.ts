// Pins that a plain tools/call over listen() leaves nothing of itself for the young generation's
// collections to keep: with requests answered one after another, what each scavenge promotes to the
// old generation stays near zero (a request's objects die young). Before the fix, an object spread
// then given a property in the HTTP answerer (`{ ...facts, rawParams }`) kept every request's objects
// alive through the scavenges on Node 20 (~150 bytes a call promoted, the old generation growing
// until a full collection: issue 24's RSS). Measured with v8.GCProfiler; real HTTP on 127.0.0.1.
import "reflect-metadata";
import { Agent, request } from "node:http";
import { GCProfiler } from "node:v8";
import { IsInt } from "class-validator";
import { Arg, McpApp, Result, Tool } from "../../../../src/index";

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Calc {
  @Tool({ name: "add", description: "Adds two integers" })
  add(@Arg() args: AddArgs) {
    return Result.structured({ sum: args.a + args.b });
  }
}

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "add",
    arguments: { a: 1, b: 2 },
    _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
  },
});
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "add",
};

function call(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: HEADERS }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve(text));
    });
    req.on("error", reject);
    req.end(BODY);
  });
}

describe("a plain call's objects die young", () => {
  it("promotes almost nothing per request to the old generation", async () => {
    const app = McpApp.create({ components: [Calc], state: { secret: "survival-test-secret-".padEnd(48, "x") } });
    const listener = await app.listen({ port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      expect(await call(listener.url, agent)).toContain('"sum":3');
      for (let i = 0; i < 500; i++) await call(listener.url, agent); // warm-up: code compiled, caches filled
      const profiler = new GCProfiler();
      profiler.start();
      const requests = 6_000;
      for (let i = 0; i < requests; i += 4) await Promise.all([0, 1, 2, 3].map(() => call(listener.url, agent)));
      const { statistics } = profiler.stop();
      const old = (s: (typeof statistics)[number]["beforeGC"]) =>
        s.heapSpaceStatistics.find((space) => space.spaceName === "old_space")!.spaceUsedSize;
      const scavenges = statistics.filter((s) => s.gcType === "Scavenge");
      const promoted = scavenges.reduce((sum, s) => sum + Math.max(0, old(s.afterGC) - old(s.beforeGC)), 0);
      expect(scavenges.length).toBeGreaterThan(3);
      // Four requests in flight (and the client's own objects) may be caught by a scavenge: a few KB each time.
      expect(promoted / requests).toBeLessThan(40);
    } finally {
      agent.destroy();
      await listener.close();
      await app.close();
    }
  }, 60_000);
});
