// Pins the list result every list method answers:
// - one page with every item, `resultType: "complete"` and the app's cache hints;
// - the same frozen object for every request of the same list (so a transport may keep its encoding);
// - a cursor is one the server never issued: -32602 "Invalid cursor".
import { listResult } from "../../../src/features/list-result";
import { McpError } from "../../../src/protocol/errors";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import type { JsonObject } from "../../../src/protocol/wire-types";

const request = (params: JsonObject): InboundRequest => ({ method: "tools/list", params, principal: null, clientCapabilities: {} });
const items: readonly JsonObject[] = Object.freeze([{ name: "a" }, { name: "b" }]);

describe("listResult", () => {
  it("answers one complete page with the cache hints", () => {
    expect(listResult(request({}), "tools", items, { ttlMs: 5, cacheScope: "public" })).toEqual({
      resultType: "complete",
      tools: [{ name: "a" }, { name: "b" }],
      ttlMs: 5,
      cacheScope: "public",
    });
  });

  it("gives every request of one list the same frozen page", () => {
    const list: readonly JsonObject[] = [{ name: "c" }];
    const first = listResult(request({}), "prompts", list, { ttlMs: 0, cacheScope: "private" });
    const second = listResult(request({ _meta: { x: 1 } }), "prompts", list, { ttlMs: 0, cacheScope: "private" });
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(listResult(request({}), "prompts", [{ name: "c" }], { ttlMs: 0, cacheScope: "private" })).not.toBe(first);
  });

  it("refuses any cursor with -32602", () => {
    const call = () => listResult(request({ cursor: "next" }), "tools", items, { ttlMs: 0, cacheScope: "private" });
    expect(call).toThrow(McpError);
    expect(call).toThrow("Invalid cursor");
    try {
      call();
    } catch (error) {
      expect((error as McpError).code).toBe(-32602);
    }
  });
});
