/*
 * Behaviours pinned (test/support/legacy-wire-schema.ts, the 2025 validator WireTap relies on):
 * - the shipped 2025-11-25 and 2025-06-18 schemas are byte-identical to the published ones (sha256);
 * - a result is checked against its method's $def and refused with any field 2026-07-28 added
 *   (resultType, ttlMs, cacheScope, inputRequests, requestState);
 * - to 2025-06-18: elicitation/create without mode or elicitationId, listed entries without icons;
 *   2025-11-25 accepts both, and requires elicitationId on a URL question; a URL question to
 *   2025-06-18 only when the client declared elicitation.url at initialize, whole as 2025-11-25 has it;
 * - a server request or notification of a method the revision lacks is refused.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { LEGACY_SCHEMA_PATHS, validateLegacyResult, validateLegacyServerMessage } from "../../support/legacy-wire-schema";

const TOOL = { name: "t", inputSchema: { type: "object" } };
const FORM = { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
const ask = (params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params });

describe("the shipped 2025 schema files", () => {
  it.each([
    ["2025-11-25", "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7"],
    ["2025-06-18", "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01"],
  ] as const)("%s is byte-identical to the published schema.json", (revision, sha256) => {
    expect(createHash("sha256").update(fs.readFileSync(LEGACY_SCHEMA_PATHS[revision])).digest("hex")).toBe(sha256);
  });
});

describe("validateLegacyResult", () => {
  it.each(["2025-11-25", "2025-06-18"] as const)("accepts a %s list and refuses the fields 2026-07-28 added", (revision) => {
    expect(() => validateLegacyResult(revision, "tools/list", { tools: [TOOL] })).not.toThrow();
    for (const extra of [{ resultType: "complete" }, { ttlMs: 0 }, { cacheScope: "private" }, { requestState: "s" }])
      expect(() => validateLegacyResult(revision, "tools/list", { tools: [TOOL], ...extra })).toThrow(/2026-07-28 added it/);
    expect(() => validateLegacyResult(revision, "tools/list", { tools: [{ name: "t" }] })).toThrow(/inputSchema/);
  });

  it("refuses icons on a 2025-06-18 listed tool, not on a 2025-11-25 one", () => {
    const icons = { ...TOOL, icons: [{ src: "https://example.com/i.png" }] };
    expect(() => validateLegacyResult("2025-11-25", "tools/list", { tools: [icons] })).not.toThrow();
    expect(() => validateLegacyResult("2025-06-18", "tools/list", { tools: [icons] })).toThrow(/tools\[0\]\.icons/);
  });
});

describe("validateLegacyServerMessage", () => {
  it("wants elicitation/create without mode and elicitationId at 2025-06-18", () => {
    expect(() => validateLegacyServerMessage(ask(FORM), "2025-06-18")).not.toThrow();
    expect(() => validateLegacyServerMessage(ask({ mode: "form", ...FORM }), "2025-06-18")).toThrow(/params\.mode/);
    expect(() => validateLegacyServerMessage(ask({ mode: "form", ...FORM }), "2025-11-25")).not.toThrow();
  });

  it("wants an elicitationId on a 2025-11-25 URL question", () => {
    const url = { mode: "url", message: "Open", url: "https://example.com/a" };
    expect(() => validateLegacyServerMessage(ask(url), "2025-11-25")).toThrow(/elicitationId/);
    expect(() => validateLegacyServerMessage(ask({ ...url, elicitationId: "e1" }), "2025-11-25")).not.toThrow();
  });

  it("takes a URL question to 2025-06-18 only from a client that declared elicitation.url, in 2025-11-25's shape", () => {
    const url = { mode: "url", message: "Open", url: "https://example.com/a", elicitationId: "e1" };
    const declared = { elicitation: { form: {}, url: {} } };
    expect(() => validateLegacyServerMessage(ask(url), "2025-06-18", undefined, declared)).not.toThrow();
    expect(() => validateLegacyServerMessage(ask(url), "2025-06-18", undefined, { elicitation: {} })).toThrow(
      /did not declare elicitation\.url/,
    );
    const { elicitationId: _id, ...withoutId } = url;
    expect(() => validateLegacyServerMessage(ask(withoutId), "2025-06-18", undefined, declared)).toThrow(/elicitationId/);
    const { mode: _mode, ...withoutMode } = url;
    expect(() => validateLegacyServerMessage(ask(withoutMode), "2025-06-18", undefined, declared)).toThrow(/requestedSchema/);
  });

  it("refuses a notification the revision lacks, and checks results by method", () => {
    const complete = { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e1" } };
    expect(() => validateLegacyServerMessage(complete, "2025-11-25")).not.toThrow();
    expect(() => validateLegacyServerMessage(complete, "2025-06-18")).toThrow(/not a server request or notification/);
    const response = { jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [] } };
    expect(() => validateLegacyServerMessage(response, "2025-11-25", "tools/call")).toThrow(/resultType/);
    expect(() => validateLegacyServerMessage({ ...response, result: { content: [] } }, "2025-11-25", "tools/call")).not.toThrow();
  });
});
