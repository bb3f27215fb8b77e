/*
 * Pins the fast lane's encoding of an `input_required` result with questions encoded once:
 * - a static question's request, prepared at bootstrap (prepareStaticQuestion), is frozen all the
 *   way down and has its JSON text remembered (encodeOnce); a question with a computed message
 *   has none (it is built every round);
 * - encodeResult writes the same bytes for a result carrying remembered requests as for the same
 *   result built of plain copies (static and per-round requests mixed, any key order, undefined
 *   fields, a result with its own _meta), and does not encode a remembered request again;
 * - encodeOnce remembers nothing for a value still changeable below a surface-frozen object.
 */
import "reflect-metadata";
import { IsInt, Min } from "class-validator";
import type { ElicitSpec } from "../../../../src/features/component-definition";
import { prepareStaticQuestion } from "../../../../src/features/question-builder";
import { TOOLS_CALL } from "../../../../src/features/tools/tools-feature";
import { Elicitation, type JsonObject } from "../../../../src/index";
import { encodedTextOf, encodeOnce } from "../../../../src/protocol/encoded-json";
import { encodeResult, type DirectMethod } from "../../../../src/server/lane/lane-encoding";

class Seats {
  @IsInt() @Min(1) count!: number;
}

const META = '{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}';
const SPEC = TOOLS_CALL as DirectMethod;
const CAPS = { elicitation: { form: {}, url: {} } };

function staticSpec(key: string, options: ElicitSpec["options"]): ElicitSpec {
  return { key, source: Seats, computed: false, options, after: [] };
}

const seats = prepareStaticQuestion(staticSpec("seats", { message: "How many seats?" })).built!.request;
const link = prepareStaticQuestion({
  key: "link",
  source: { url: "https://example.com/connect" },
  computed: false,
  options: { message: "Connect" },
  after: [],
}).built!.request;
const plain = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;

afterEach(() => jest.restoreAllMocks());

describe("static questions encoded once", () => {
  it("freezes a static question's request all the way down and remembers its JSON text", () => {
    expect(Object.isFrozen(seats)).toBe(true);
    expect(Object.isFrozen(seats.params)).toBe(true);
    expect(encodedTextOf(seats)).toBe(JSON.stringify(plain(seats)));
    expect(encodedTextOf(link)).toBe(JSON.stringify(plain(link)));
  });

  it("remembers nothing for a question whose message is computed", () => {
    const prepared = prepareStaticQuestion(staticSpec("later", { message: () => "Which?" }));
    expect(prepared.built).toBeUndefined();
    expect(encodedTextOf(Elicitation.form("Which?", Seats))).toBeUndefined();
  });

  it("remembers nothing for a value still changeable below a surface-frozen object", () => {
    const value = { outer: Object.freeze({ inner: { n: 1 } }) };
    encodeOnce(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(encodedTextOf(value)).toBeUndefined();
  });
});

describe("encodeResult of input_required with remembered questions", () => {
  const perRound = Elicitation.form("Pick one", { type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
  const cases: Array<[string, (requests: Record<string, unknown>) => JsonObject]> = [
    ["inputRequests then requestState", (r) => ({ resultType: "input_required", inputRequests: r, requestState: "rt3.k.p.m" })],
    ["requestState first", (r) => ({ requestState: "s", resultType: "input_required", inputRequests: r }) as JsonObject],
    ["undefined fields", (r) => ({ resultType: "input_required", extra: undefined, inputRequests: r, later: undefined }) as JsonObject],
    [
      "its own _meta",
      (r) => ({ _meta: { "io.modelcontextprotocol/serverInfo": { name: "own" } }, resultType: "input_required", inputRequests: r }),
    ],
  ];

  it.each(cases)("writes the bytes of the same result built of plain copies (%s)", (_name, make) => {
    const requests = { seats, pick: perRound, link };
    const copies = { seats: plain(seats), pick: plain(perRound), link: plain(link) };
    const spliced = encodeResult(SPEC, CAPS, make(requests), META);
    expect(spliced).toBeDefined();
    expect(spliced).toBe(encodeResult(SPEC, CAPS, make(copies), META));
  });

  it("does not encode a remembered request again", () => {
    const stringify = jest.spyOn(JSON, "stringify");
    encodeResult(SPEC, CAPS, { resultType: "input_required", inputRequests: { seats, pick: perRound }, requestState: "s" }, META);
    const encoded = stringify.mock.calls.map((call) => call[0]);
    expect(encoded).toContain(perRound);
    expect(encoded).not.toContain(seats);
    expect(encoded).not.toContain(seats.params);
  });
});
