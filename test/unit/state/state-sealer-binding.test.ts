/*
 * Pins what a sealed state is bound to (StateSealer.seal/open):
 * - a token opens for the same method, salient params and principal and returns the data as sealed;
 * - salient params ignore object key order, at any depth;
 * - changed array order, a changed nested argument, a changed or added nested `arguments._meta`,
 *   an added or removed param, or `1` vs `"1"` make it fail;
 * - top-level `_meta`, `inputResponses`, `requestState` and the JSON-RPC id (or any other field
 *   of the context outside requestParams) do not affect it;
 * - another method fails; another principal, anonymous vs named and named vs anonymous fail;
 * - neither the params nor the principal appear in the token, nor a digest of them without the key
 *   (the tags differ under another secret); the data does (signed, not encrypted);
 * - a token for another request and another principal is logged as other-request;
 * - undefined data properties are dropped; every failure is the exact -32602 error with the
 *   precise reason logged (other-request / other-principal).
 */
import { createHash } from "node:crypto";
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

const SECRET = "binding-test-secret-0123456789-abcdefghij";
const NOW = 1_750_000_000_000;

function makeSealer(logger = new MemoryLogger()): { sealer: StateSealer; logger: MemoryLogger } {
  return { sealer: new StateSealer({ secret: SECRET, now: () => NOW }, logger), logger };
}

function ctxOf(requestParams: Record<string, unknown>, requestMethod = "tools/call", extra: Record<string, unknown> = {}): StateBinding {
  return { requestMethod, requestParams, ...extra } as StateBinding;
}

const PARAMS = {
  name: "book_trip",
  arguments: {
    city: "Lyon",
    nights: 3,
    travellers: ["ana", "bo"],
    options: { breakfast: true, room: { beds: 2, view: "river" } },
    _meta: { trace: "abc" },
  },
  _meta: { progressToken: 7, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
  inputResponses: { step1: { action: "accept", content: { ok: true } } },
  requestState: "rt1.previous",
};

function lastReason(logger: MemoryLogger): unknown {
  return logger.entries[logger.entries.length - 1]?.fields?.reason;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe("StateSealer binding", () => {
  const data = { answers: { step1: { ok: true } }, round: 2, list: [3, "x", null] };

  it("opens for the same request and principal and returns the data", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    expect(sealer.open(token, ctxOf(clone(PARAMS)), { principal: "alice" })).toEqual(data);
    expect(logger.entries).toEqual([]);
  });

  it("round-trips anonymous (null principal)", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: null });
    expect(sealer.open(token, ctxOf(PARAMS), { principal: null })).toEqual(data);
  });

  it("returns the data's keys in their sealed order and drops undefined properties", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal({ z: 1, a: 2, gone: undefined }, ctxOf(PARAMS), { principal: null });
    const opened = sealer.open(token, ctxOf(PARAMS), { principal: null });
    expect(opened).toEqual({ z: 1, a: 2 });
    expect(Object.keys(opened as object)).toEqual(["z", "a"]);
  });

  it("opens when object keys are reordered, at every depth", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    const reordered = {
      requestState: PARAMS.requestState,
      arguments: {
        _meta: { trace: "abc" },
        options: { room: { view: "river", beds: 2 }, breakfast: true },
        travellers: ["ana", "bo"],
        nights: 3,
        city: "Lyon",
      },
      inputResponses: PARAMS.inputResponses,
      _meta: PARAMS._meta,
      name: "book_trip",
    };
    expect(sealer.open(token, ctxOf(reordered), { principal: "alice" })).toEqual(data);
  });

  it("opens when the top-level _meta, inputResponses and requestState change or disappear", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    const retry = { ...clone(PARAMS), _meta: { progressToken: 99 }, inputResponses: { step2: { action: "decline" } }, requestState: token };
    expect(sealer.open(token, ctxOf(retry), { principal: "alice" })).toEqual(data);
    const { _meta, inputResponses, requestState, ...bare } = clone(PARAMS);
    expect(sealer.open(token, ctxOf(bare), { principal: "alice" })).toEqual(data);
  });

  it("opens when the JSON-RPC id or other context fields change", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS, "tools/call", { id: 1, jsonrpc: "2.0", transport: "stdio" }), { principal: "alice" });
    const retry = ctxOf(PARAMS, "tools/call", { id: "another-id", jsonrpc: "2.0", transport: "http" });
    expect(sealer.open(token, retry, { principal: "alice" })).toEqual(data);
  });

  const changed: [string, (p: typeof PARAMS) => void][] = [
    ["a reversed array", (p) => p.arguments.travellers.reverse()],
    [
      "a changed nested argument",
      (p) => {
        p.arguments.options.room.beds = 3;
      },
    ],
    [
      'a nested argument changed from 2 to "2"',
      (p) => {
        (p.arguments.options.room as Record<string, unknown>).beds = "2";
      },
    ],
    [
      "a changed top-level argument",
      (p) => {
        p.arguments.city = "Lille";
      },
    ],
    [
      "another tool name",
      (p) => {
        p.name = "book_flight";
      },
    ],
    [
      "a changed arguments._meta value",
      (p) => {
        p.arguments._meta.trace = "abd";
      },
    ],
    [
      "an added arguments._meta key",
      (p) => {
        (p.arguments._meta as Record<string, unknown>).extra = 1;
      },
    ],
    [
      "a removed arguments._meta",
      (p) => {
        delete (p.arguments as Record<string, unknown>)._meta;
      },
    ],
    [
      "an added argument",
      (p) => {
        (p.arguments as Record<string, unknown>).pets = 0;
      },
    ],
    [
      "an added argument set to null",
      (p) => {
        (p.arguments as Record<string, unknown>).pets = null;
      },
    ],
    [
      "an added top-level param",
      (p) => {
        (p as Record<string, unknown>).cursor = "x";
      },
    ],
    [
      "a removed argument",
      (p) => {
        delete (p.arguments as Record<string, unknown>).nights;
      },
    ],
    [
      "a changed array element",
      (p) => {
        p.arguments.travellers[1] = "bob";
      },
    ],
    [
      "a longer array",
      (p) => {
        p.arguments.travellers.push("cy");
      },
    ],
  ];

  it.each(changed)("fails on %s", (_label, change) => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    const params = clone(PARAMS);
    change(params);
    rejectionOf(() => sealer.open(token, ctxOf(params), { principal: "alice" }));
    expect(lastReason(logger)).toBe("other-request");
  });

  it('distinguishes 1 from "1" in a param', () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(data, ctxOf({ name: "t", arguments: { n: 1 } }), { principal: null });
    rejectionOf(() => sealer.open(token, ctxOf({ name: "t", arguments: { n: "1" } }), { principal: null }));
    expect(lastReason(logger)).toBe("other-request");
    // 1.0 on the wire parses to the same number as 1: JavaScript cannot tell them apart.
    expect(sealer.open(token, ctxOf(JSON.parse('{"name":"t","arguments":{"n":1.0}}')), { principal: null })).toEqual(data);
  });

  it("fails for another method with the same params", () => {
    const { sealer, logger } = makeSealer();
    const params = { name: "greeting" };
    const token = sealer.seal(data, ctxOf(params, "prompts/get"), { principal: null });
    rejectionOf(() => sealer.open(token, ctxOf(params, "tools/call"), { principal: null }));
    expect(lastReason(logger)).toBe("other-request");
  });

  it.each([
    ["alice", "bob"],
    ["alice", null],
    [null, "alice"],
    ["alice", "Alice"],
    ["null", null],
  ] as [string | null, string | null][])("fails when sealed for %p and opened for %p", (sealedFor, openedFor) => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: sealedFor });
    rejectionOf(() => sealer.open(token, ctxOf(PARAMS), { principal: openedFor }));
    expect(lastReason(logger)).toBe("other-principal");
  });

  it("reports a token for another request and another principal as other-request", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    rejectionOf(() => sealer.open(token, ctxOf({ name: "book_flight" }), { principal: "bob" }));
    expect(lastReason(logger)).toBe("other-request");
  });

  it("carries nothing of the binding: an empty tags field, and no digest of the principal", () => {
    const { sealer } = makeSealer();
    const fields = (token: string) => JSON.parse(Buffer.from(token.split(".")[2]!, "base64url").toString("utf8")) as unknown[];
    expect(fields(sealer.seal(data, ctxOf(PARAMS), { principal: "alice" }))[3]).toBe("");
    const token = sealer.seal(data, ctxOf(PARAMS), { principal: "alice" });
    for (const text of ["alice", '"alice"']) {
      for (const encoding of ["hex", "base64", "base64url"] as const) {
        expect(token).not.toContain(createHash("sha256").update(text).digest(encoding).slice(0, 8));
      }
    }
  });

  it("keeps params and principal out of the token but leaves the data readable", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal({ note: "visible-data" }, ctxOf(PARAMS), { principal: "alice@example.com" });
    const [, , payload] = token.split(".");
    const decoded = Buffer.from(payload!, "base64url").toString("utf8");
    expect(decoded).toContain("visible-data");
    for (const hidden of ["alice@example.com", "Lyon", "book_trip", "river", "tools/call"]) {
      expect(decoded).not.toContain(hidden);
      expect(token).not.toContain(hidden);
    }
  });
});
