/*
 * Pins the fast lane's encoding of a complete result carrying a value whose JSON text is kept (a
 * list page's entries, `keepText`, made by listResult for a page followed by others):
 * - encodeResult writes the same bytes as for the same result built of plain copies (any key
 *   order, undefined fields, the cache hints given or added, a result with its own _meta), and
 *   does not encode the kept value again;
 * - keepText keeps nothing for an array that is not frozen (it could still change);
 * - a result with its own toJSON is encoded by JSON.stringify as a whole.
 */
import type { JsonObject } from "../../../../src/index";
import { encodedTextOf, keepText } from "../../../../src/protocol/encoded-json";
import { TOOLS_CALL } from "../../../../src/features/tools/tools-feature";
import { encodeResult, type DirectMethod } from "../../../../src/server/lane/lane-encoding";

const META = '{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}';
const LIST = { ...TOOLS_CALL, direct: { cacheable: true, result: "tool-list" } } as DirectMethod;
const tools = (): JsonObject[] =>
  Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, description: `tool "${i}"\n`, inputSchema: { type: "object" } }));
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;

afterEach(() => jest.restoreAllMocks());

describe("encodeResult of a complete result with a kept list page", () => {
  const page = keepText(Object.freeze(tools()));
  const cases: Array<[string, (entries: unknown) => JsonObject]> = [
    ["hints given", (t) => ({ resultType: "complete", tools: t, nextCursor: "rt3.k.p.m", ttlMs: 5, cacheScope: "public" })],
    ["hints added", (t) => ({ tools: t, nextCursor: "c" }) as JsonObject],
    ["entries last", (t) => ({ nextCursor: "c", resultType: "complete", tools: t }) as JsonObject],
    ["undefined fields", (t) => ({ resultType: "complete", extra: undefined, tools: t, nextCursor: "c", later: undefined }) as JsonObject],
    ["its own _meta", (t) => ({ _meta: { "io.modelcontextprotocol/serverInfo": { name: "own" } }, resultType: "complete", tools: t })],
  ];

  it.each(cases)("writes the bytes of the same result built of plain copies (%s)", (_name, make) => {
    const spliced = encodeResult(LIST, {}, make(page), META);
    expect(spliced).toBeDefined();
    expect(spliced).toBe(encodeResult(LIST, {}, make(plain(page)), META));
  });

  it("does not encode the kept page again", () => {
    expect(encodedTextOf(page)).toBe(JSON.stringify(page));
    const stringify = jest.spyOn(JSON, "stringify");
    encodeResult(LIST, {}, { resultType: "complete", tools: page, nextCursor: "c" }, META);
    const encoded = stringify.mock.calls.map((call) => call[0]);
    expect(encoded).toContain("c");
    expect(encoded).not.toContain(page);
  });

  it("keeps nothing for an array that is not frozen", () => {
    const open = tools();
    expect(keepText(open)).toBe(open);
    expect(encodedTextOf(open)).toBeUndefined();
  });

  it("encodes a result with its own toJSON as a whole", () => {
    const result = { resultType: "complete", tools: page, toJSON: () => ({ resultType: "complete", tools: [] }) } as unknown as JsonObject;
    expect(encodeResult(LIST, {}, result, META)).toBe(
      `{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"private","_meta":${META}}`,
    );
  });
});
