/*
 * Pins how StateSealer.open refuses tokens that were not sealed as presented:
 * - the token format: rt1.<keyId>.<base64url JSON [1, issued, expires, scope, data]>.<mac>;
 * - one flipped character at any position fails (every position, two replacements each);
 * - truncation, appended characters, and a missing part fail;
 * - a token re-signed under another ring key (valid MAC under B claiming A's id, and vice versa) fails;
 * - a swapped key id fails (bad MAC for a known id, unknown-key for an unknown id);
 * - a payload version that differs from the prefix version fails, as does an unknown prefix version;
 * - a 16,385-byte token fails before parsing (too-large), a 16,384-byte one is parsed;
 * - non-string tokens (number, null, object, undefined, array, Buffer) fail;
 * - a token sealed with another secret fails (bad-mac);
 * - every failure is the exact McpError -32602 "Invalid or expired request state" with no data;
 * - the logger gets one warn per failure with the precise reason and never the secret, the token,
 *   its parts, the data, the principal or the params.
 */
import { createHmac } from "node:crypto";
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

const SECRET_A = "tamper-test-secret-A-0123456789abcdefghijklmnop";
const SECRET_B = "tamper-test-secret-B-0123456789abcdefghijklmnop";
const NOW = 1_750_000_000_000;
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "pay", arguments: { amount: 12, payee: "PARAM-PAYEE" } } };
const DATA = { carried: "DATA-VALUE", step: 1 };
const PRINCIPAL = "PRINCIPAL-carol";

function makeSealer(keys = [{ id: "A", secret: SECRET_A }, { id: "B", secret: SECRET_B }]) {
  const logger = new MemoryLogger();
  return { sealer: new StateSealer({ keys, now: () => NOW }, logger), logger };
}


function reasonOf(logger: MemoryLogger, open: () => unknown): unknown {
  const before = logger.entries.length;
  rejectionOf(open);
  expect(logger.entries.length).toBe(before + 1);
  const entry = logger.entries[logger.entries.length - 1];
  // The first of each reason per interval is a warning, the next ones debug lines (RejectionLog).
  expect(["warn", "debug"]).toContain(entry.level);
  expect(entry.message).toBe("requestState rejected");
  return entry.fields?.reason;
}

// An independent re-implementation of the signing step, to forge tokens a key holder could make.
function macWith(secret: string, signed: string): string {
  const macKey = createHmac("sha256", Buffer.from(secret, "utf8")).update("roundtrip-mcp/state/mac-key/v1").digest();
  return createHmac("sha256", macKey).update(`roundtrip-mcp/state/token/v1\0${signed}`).digest("base64url");
}

function forge(secret: string, prefix: string, keyId: string, payloadJson: string): string {
  const signed = `${prefix}.${keyId}.${Buffer.from(payloadJson, "utf8").toString("base64url")}`;
  return `${signed}.${macWith(secret, signed)}`;
}

function partsOf(token: string) {
  const [prefix, keyId, payload, mac] = token.split(".");
  return { prefix, keyId, payload, mac, fields: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[] };
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
function flip(char: string): string {
  const at = ALPHABET.indexOf(char);
  return at < 0 ? "A" : ALPHABET[(at + 1) % ALPHABET.length];
}

describe("StateSealer token format", () => {
  it("is rt1.<keyId>.<payload>.<mac> with payload [1, issued, expires, scope, data]", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { prefix, keyId, mac, fields } = partsOf(token);
    expect(prefix).toBe("rt1");
    expect(keyId).toBe("A");
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const issued = Math.floor(NOW / 1000);
    expect(fields).toEqual([1, issued, issued + 300, expect.stringMatching(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/), DATA]);
  });

  it("is reproduced by the independent forger, so forged-token tests below are meaningful", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { fields } = partsOf(token);
    expect(forge(SECRET_A, "rt1", "A", JSON.stringify(fields))).toBe(token);
    const changedData = JSON.stringify([...fields.slice(0, 4), { carried: "forged", step: 9 }]);
    expect(sealer.open(forge(SECRET_A, "rt1", "A", changedData), CTX, { principal: PRINCIPAL })).toEqual({ carried: "forged", step: 9 });
  });
});

describe("StateSealer tamper resistance", () => {
  it.each([
    ["a two-key ring", makeSealer, ["bad-mac", "malformed", "unsupported-version"]],
    ["a lone secret", () => makeSealer([{ id: "default", secret: SECRET_A }]), ["bad-mac", "malformed", "unknown-key", "unsupported-version"]],
  ] as const)("rejects one flipped character at every position (%s)", (_label, build, expectedReasons) => {
    const { sealer, logger } = build();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const reasons = new Set<unknown>();
    let attempts = 0;
    for (let i = 0; i < token.length; i++) {
      for (const replacement of [flip(token[i]), "~"]) {
        const tampered = token.slice(0, i) + replacement + token.slice(i + 1);
        expect(tampered).not.toBe(token);
        reasons.add(reasonOf(logger, () => sealer.open(tampered, CTX, { principal: PRINCIPAL })));
        attempts++;
      }
    }
    expect(attempts).toBe(2 * token.length);
    // In the ring, flipping key id "A" gives "B", a ring key whose MAC does not match.
    expect([...reasons].sort()).toEqual([...expectedReasons]);
    expect(sealer.open(token, CTX, { principal: PRINCIPAL })).toEqual(DATA);
  });

  it.each([
    ["truncated by one character", (t: string) => t.slice(0, -1)],
    ["with an appended character", (t: string) => `${t}A`],
    ["without its MAC", (t: string) => t.slice(0, t.lastIndexOf("."))],
    ["with an empty MAC", (t: string) => t.slice(0, t.lastIndexOf(".") + 1)],
    ["with a doubled dot", (t: string) => t.replace(".", "..")],
    ["with a padded payload", (t: string) => t.replace(/\.([^.]+)\.([^.]+)$/, ".$1=.$2")],
    ["empty", () => ""],
  ])("rejects a token %s", (_label, change) => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    expect(reasonOf(logger, () => sealer.open(change(token), CTX, { principal: PRINCIPAL }))).toBe("malformed");
  });

  it("rejects a token re-signed under key B that claims key A's id, and vice versa", () => {
    const { sealer, logger } = makeSealer();
    const { fields } = partsOf(sealer.seal(DATA, CTX, { principal: PRINCIPAL }));
    const payload = JSON.stringify(fields);
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_B, "rt1", "A", payload), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt1", "B", payload), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
  });

  it("rejects a swapped key id", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    expect(reasonOf(logger, () => sealer.open(token.replace(/^rt1\.A\./, "rt1.B."), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(token.replace(/^rt1\.A\./, "rt1.C."), CTX, { principal: PRINCIPAL }))).toBe("unknown-key");
  });

  it("rejects a key id that was removed from the ring, even with a valid MAC", () => {
    const { sealer: old } = makeSealer([{ id: "A", secret: SECRET_A }]);
    const { sealer: rotated, logger } = makeSealer([{ id: "B", secret: SECRET_B }]);
    const token = old.seal(DATA, CTX, { principal: PRINCIPAL });
    expect(reasonOf(logger, () => rotated.open(token, CTX, { principal: PRINCIPAL }))).toBe("unknown-key");
  });

  it("rejects a payload version that differs from the prefix version", () => {
    const { sealer, logger } = makeSealer();
    const { fields } = partsOf(sealer.seal(DATA, CTX, { principal: PRINCIPAL }));
    const withVersion = (version: unknown) => JSON.stringify([version, ...fields.slice(1)]);
    for (const version of [2, 0, "1", null]) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt1", "A", withVersion(version)), CTX, { principal: PRINCIPAL }))).toBe("version-mismatch");
    }
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt2", "A", withVersion(2)), CTX, { principal: PRINCIPAL }))).toBe("unsupported-version");
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt2", "A", withVersion(1)), CTX, { principal: PRINCIPAL }))).toBe("unsupported-version");
  });

  it("rejects a correctly signed payload of the wrong shape", () => {
    const { sealer, logger } = makeSealer();
    const { fields } = partsOf(sealer.seal(DATA, CTX, { principal: PRINCIPAL }));
    const shapes = [
      "not json",
      JSON.stringify({ version: 1 }),
      JSON.stringify(fields.slice(0, 4)),
      JSON.stringify([...fields, "extra"]),
      JSON.stringify([1, "now", fields[2], fields[3], DATA]),
      JSON.stringify([1, fields[1], 1.5, fields[3], DATA]),
      JSON.stringify([1, fields[1], fields[2], 42, DATA]),
    ];
    for (const shape of shapes) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt1", "A", shape), CTX, { principal: PRINCIPAL }))).toBe("malformed");
    }
  });

  it("rejects a token over 16384 bytes before parsing, and parses one of exactly 16384", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const over = token + "A".repeat(16385 - token.length);
    expect(over.length).toBe(16385);
    expect(reasonOf(logger, () => sealer.open(over, CTX, { principal: PRINCIPAL }))).toBe("too-large");
    expect(logger.entries[logger.entries.length - 1].fields).toEqual({ reason: "too-large", method: "tools/call", limit: 16384 });
    expect(reasonOf(logger, () => sealer.open("x".repeat(1_000_000), CTX, { principal: PRINCIPAL }))).toBe("too-large");
    // 16384 characters but 16385 bytes in UTF-8.
    expect(reasonOf(logger, () => sealer.open(`${"x".repeat(16383)}\u00e9`, CTX, { principal: PRINCIPAL }))).toBe("too-large");
    expect(reasonOf(logger, () => sealer.open(token + "A".repeat(16384 - token.length), CTX, { principal: PRINCIPAL }))).toBe("malformed");
  });

  it.each([
    ["a number", 12345],
    ["null", null],
    ["an object", { token: "rt1.A.x.y" }],
    ["undefined", undefined],
    ["an array", ["rt1"]],
    ["a Buffer", Buffer.from("rt1.A.x.y")],
    ["a boolean", true],
  ])("rejects %s as a token", (_label, token) => {
    const { sealer, logger } = makeSealer();
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: PRINCIPAL }))).toBe("not-a-string");
  });

  it("rejects a token sealed with another secret under the same key id", () => {
    const { sealer: mine } = makeSealer([{ id: "A", secret: SECRET_A }]);
    const { sealer: theirs, logger } = makeSealer([{ id: "A", secret: SECRET_B }]);
    const token = mine.seal(DATA, CTX, { principal: PRINCIPAL });
    expect(reasonOf(logger, () => theirs.open(token, CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
  });

  it("rejects a token sealed with another lone secret", () => {
    const logger = new MemoryLogger();
    const mine = new StateSealer({ secret: SECRET_A }, new MemoryLogger());
    const theirs = new StateSealer({ secret: SECRET_B }, logger);
    const token = mine.seal(DATA, CTX, { principal: null });
    expect(reasonOf(logger, () => theirs.open(token, CTX, { principal: null }))).toBe("bad-mac");
  });
});

describe("StateSealer failure logging", () => {
  it("logs each precise reason and nothing secret", () => {
    const logger = new MemoryLogger();
    let nowMs = NOW;
    const sealer = new StateSealer({ keys: [{ id: "A", secret: SECRET_A }, { id: "B", secret: SECRET_B }], now: () => nowMs }, logger);
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { payload, mac } = partsOf(token);
    const other: StateBinding = { requestMethod: "tools/call", requestParams: { name: "pay", arguments: { amount: 13, payee: "PARAM-PAYEE" } } };
    const attempts: [unknown, StateBinding, string | null][] = [
      [42, CTX, PRINCIPAL],
      [token + "x".repeat(17000), CTX, PRINCIPAL],
      [`${token}!`, CTX, PRINCIPAL],
      [token.replace(/^rt1/, "rt9"), CTX, PRINCIPAL],
      [token.replace(/^rt1\.A/, "rt1.Z"), CTX, PRINCIPAL],
      [token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA"), CTX, PRINCIPAL],
      [token, other, PRINCIPAL],
      [token, CTX, "PRINCIPAL-dave"],
    ];
    for (const [candidate, ctx, principal] of attempts) rejectionOf(() => sealer.open(candidate, ctx, { principal }));
    nowMs = NOW + 300_000;
    rejectionOf(() => sealer.open(token, CTX, { principal: PRINCIPAL }));

    expect(logger.entries.map((e) => e.fields?.reason)).toEqual([
      "not-a-string",
      "too-large",
      "malformed",
      "unsupported-version",
      "unknown-key",
      "bad-mac",
      "other-request",
      "other-principal",
      "expired",
    ]);
    for (const entry of logger.entries) {
      expect(entry.level).toBe("warn");
      expect(entry.fields?.method).toBe("tools/call");
    }
    const logged = JSON.stringify(logger.entries);
    for (const secret of [SECRET_A, SECRET_B, token, payload, mac, "DATA-VALUE", PRINCIPAL, "PRINCIPAL-dave", "PARAM-PAYEE"]) {
      expect(logged).not.toContain(secret);
    }
  });

  it("logs nothing on success", () => {
    const { sealer, logger } = makeSealer();
    sealer.open(sealer.seal(DATA, CTX, { principal: PRINCIPAL }), CTX, { principal: PRINCIPAL });
    expect(logger.entries).toEqual([]);
  });
});
