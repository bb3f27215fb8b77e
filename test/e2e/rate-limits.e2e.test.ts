// Pins what a caller over its rate limit gets on the wire (issue 22 item 3), and that nobody else
// pays for it:
// - over HTTP (listen(), the fast lane on and off): a burst of 20 concurrent calls by one
//   principal against a limit of 5 gets exactly 5 answers 200 and 15 answers 429 with a
//   `Retry-After` of whole seconds and the JSON-RPC error body -32010 whose data.retryAfter
//   equals the header (the payload itself: test/unit/dispatch/rate-limiter.test.ts), and the tool
//   ran 5 times; another principal's calls sent during the burst all succeed (200), and so do the
//   bursting principal's calls of another tool;
// - a mounted httpHandler() answers the same 429 with Retry-After;
// - over stdio (the compiled fixture child, the app's default limit): past the limit, the
//   JSON-RPC error -32010, and the connection keeps serving.
import "reflect-metadata";
import { Tool, McpApp } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { serveRaw } from "../support/boundaries";
import { createFeatureApp } from "./fixtures/feature-app";
import { meta, rpc } from "../support/raw-http";

let searches = 0;

class Catalogue {
  @Tool({ rateLimit: { limit: 5, windowMs: 60_000 } })
  search() {
    searches++;
    return "results";
  }

  @Tool()
  status() {
    return "ok";
  }
}

describe.each([true, false])("a burst over the limit over HTTP (fast lane %p)", (fastLane) => {
  const app = McpApp.create({ components: [Catalogue], state: { ephemeral: true }, logger: new MemoryLogger() });
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const listener = await app.listen({ fastLane, authenticate: (req) => (req.headers["x-user"] as string | undefined) ?? null });
    url = listener.url;
    close = () => listener.close();
  });
  afterAll(async () => {
    await close();
    await app.close();
  });

  it("answers 429 with Retry-After to the burst only; everyone else is served", async () => {
    searches = 0;
    const as = (user: string, name: string) =>
      rpc(url, "tools/call", { _meta: meta(), name, arguments: {} }, { headers: { "x-user": user } });
    const [burst, others, ownOther] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => as("mallory", "search"))),
      Promise.all(Array.from({ length: 5 }, () => as("alice", "search"))),
      Promise.all(Array.from({ length: 5 }, () => as("mallory", "status"))),
    ]);
    const served = burst.filter((r) => r.status === 200);
    const refused = burst.filter((r) => r.status === 429);
    expect([served.length, refused.length]).toEqual([5, 15]);
    for (const r of served) expect((r.body!.result as { isError?: boolean }).isError).toBeUndefined();
    for (const r of refused) {
      const retryAfter = r.headers.get("retry-after");
      expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
      // The error's payload is the dispatcher's (test/unit/dispatch/rate-limiter.test.ts); here, the 429 and a Retry-After that agrees with it.
      expect(r.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32010, data: { limit: 5, retryAfter: Number(retryAfter) } } });
      expect(r.body).not.toHaveProperty("result");
    }
    expect(searches).toBe(5 + 5);
    // alice's calls, sent during the burst, are within her own budget: every one served.
    expect(others.every((r) => r.status === 200 && r.body!.result !== undefined)).toBe(true);
    expect(ownOther.every((r) => r.status === 200 && r.body!.result !== undefined)).toBe(true);
  });
});

describe("a mounted httpHandler()", () => {
  it("answers 429 with Retry-After past the limit", async () => {
    class Once {
      @Tool({ rateLimit: { limit: 1, windowMs: 60_000 } })
      once() {
        return "ok";
      }
    }
    const app = McpApp.create({ components: [Once], state: { ephemeral: true }, logger: new MemoryLogger() });
    const handler = app.httpHandler();
    const send = () =>
      handler.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "once",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta(), name: "once", arguments: {} } }),
        }),
      );
    try {
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "60"]);
      expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32010);
    } finally {
      await app.close();
    }
  });
});

describe("over stdio", () => {
  const served = serveRaw("stdio", () => createFeatureApp(), "feature", {
    FIXTURE_RATE_LIMIT: JSON.stringify({ limit: 2, windowMs: 60_000 }),
  });

  it("answers the JSON-RPC error past the limit and keeps serving", async () => {
    const add = () => served.raw.request("tools/call", { _meta: meta(), name: "add", arguments: { a: 1, b: 2 } });
    expect((await add()).result).toBeDefined();
    expect((await add()).result).toBeDefined();
    const refused = await add();
    // Its payload: rate-limiter.test.ts; over a stream it is an answer like any other, and the connection goes on.
    expect(refused.error?.code).toBe(-32010);
    expect((await served.raw.request("tools/call", { _meta: meta(), name: "greet", arguments: { name: "Ada" } })).result).toBeDefined();
  });
});
