// Pins that the fast lane answers skills/list (a custom method with a paramsSchema of its own,
// declared `direct`) with exactly what the SDK path answers: the same app served by a listener with
// the lane and one without, and as two stdio children (ROUNDTRIP_FAST_LANE on and off), every case
// compared by status, headers and body bytes (sealed cursors replaced by a placeholder):
// - the first page, a later page (a valid cursor), a cursor that is not one, a cursor that is not
//   a string, unknown params, a string id, a missing or wrong MCP-Method header, a missing _meta;
// - the lane takes the well-formed ones (its count grows), and skills/get and
//   resources/directory/read, which stay on the SDK path, answer the same on both sides too.
import "reflect-metadata";
import { fastLaneCountsOf } from "../../src/server/fast-lane-counts";
import { SilentLogger, createTestClient } from "../../src/testing/index";
import { envelope, request, type WireCase } from "../support/differential-cases";
import { HttpPair, StdioPair } from "../support/differential";
import { createSkillsApp } from "./fixtures/skills-app";

function corpus(cursor: string): WireCase[] {
  const list = (label: string, params: Record<string, unknown>, options: Parameters<typeof request>[3] = {}) =>
    request(label, "skills/list", params, options);
  const missingMeta = list("no _meta", {});
  delete (missingMeta.body as { params: Record<string, unknown> }).params._meta;
  return [
    list("first page", {}),
    list("later page", { cursor }),
    list("not a cursor", { cursor: "nope" }),
    list("a number cursor", { cursor: 7 }),
    list("null cursor", { cursor: null }),
    list("unknown params", { extra: { a: 1 } }),
    list("string id", {}, { id: "s-1" }),
    list("no Mcp-Method header", {}, { headers: { "mcp-method": undefined } }),
    list("wrong Mcp-Method header", {}, { headers: { "mcp-method": "tools/list" } }),
    missingMeta,
    request("skills/get", "skills/get", { uri: "skill://pdf-processing/SKILL.md" }),
    request("skills/get unknown", "skills/get", { uri: "skill://nope/SKILL.md" }),
    request("directory read", "resources/directory/read", { uri: "skill://acme/billing/refunds" }),
  ];
}

describe("skills/list on the fast lane", () => {
  it("answers over HTTP exactly as the SDK path does", async () => {
    const app = createSkillsApp({ logger: new SilentLogger() });
    const client = await createTestClient(app);
    const pair = await HttpPair.start(app);
    try {
      const cursor = ((await client.request("skills/list")).result as { nextCursor: string }).nextCursor;
      expect(typeof cursor).toBe("string");
      const before = fastLaneCountsOf(app).taken;
      for (const c of corpus(cursor)) expect([c.label, (await pair.compare(c)).difference]).toEqual([c.label, undefined]);
      // The first page, the later page, the cursor the dispatcher refuses, unknown params and the string id: the lane's.
      expect(fastLaneCountsOf(app).taken - before).toBe(5);
    } finally {
      await pair.close();
      await client.close();
      await app.close();
    }
  });

  it("answers over stdio exactly as the SDK path does", async () => {
    const opening = JSON.stringify({
      jsonrpc: "2.0",
      id: "opening",
      method: "server/discover",
      params: { _meta: envelope() },
    });
    const sentinel = (id: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } });
    const pair = await StdioPair.start("skills", sentinel, opening);
    try {
      for (const c of corpus("not-a-cursor-of-this-child").filter((c) => c.label !== "later page" && !c.label.includes("Mcp-Method"))) {
        expect([c.label, (await pair.compare(JSON.stringify(c.body))).difference]).toEqual([c.label, undefined]);
      }
    } finally {
      await pair.close();
    }
  });
});
