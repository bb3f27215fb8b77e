/*
 * Pins how StateSealer.open refuses tokens that were not sealed as presented:
 * - the token format: rt3.<keyId>.<base64url JSON [3, issued, expires, "", data]>.<mac>, the MAC
 *   over the key id, the binding digest, the principal and the payload's bytes, reproduced by an
 *   independent implementation (as is rt2's, which open still reads);
 * - a payload whose base64url is not the one seal writes for its bytes (padding, the other
 *   base64 alphabet, stray bits in its last character, a character above 0xff read by its low
 *   byte) fails, although its bytes and MAC are right;
 * - one flipped character at any position fails (every position, two replacements each); so does a
 *   MAC character replaced by a non-ASCII one, even right after the true MAC was compared;
 * - truncation, appended characters, and a missing part fail;
 * - a token re-signed under another ring key (valid MAC under B claiming A's id, and vice versa) fails;
 * - a swapped key id fails (bad MAC for a known id, unknown-key for an unknown id);
 * - a payload version that differs from the prefix version fails (rt3, and the rt2 still read), as
 *   does an unknown prefix version, rt1 among them (no longer read);
 * - a 16,385-byte token fails before parsing (too-large), a 16,384-byte one is parsed;
 * - non-string tokens (number, null, object, undefined, array, Buffer) fail;
 * - a token sealed with another secret fails (bad-mac);
 * - every failure is the exact McpError -32602 "Invalid or expired request state" with no data;
 * - the logger gets one warn per failure with the precise reason and never the secret, the token,
 *   its parts, the data, the principal or the params.
 */
import { createHash, createHmac } from "node:crypto";
import { canonicalJson } from "../../../src/protocol/canonical-json";
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

function makeSealer(
  keys = [
    { id: "A", secret: SECRET_A },
    { id: "B", secret: SECRET_B },
  ],
) {
  const logger = new MemoryLogger();
  return { sealer: new StateSealer({ keys, now: () => NOW }, logger), logger };
}

function reasonOf(logger: MemoryLogger, open: () => unknown): unknown {
  const before = logger.entries.length;
  rejectionOf(open);
  expect(logger.entries.length).toBe(before + 1);
  const entry = logger.entries[logger.entries.length - 1]!; // one entry more than before (checked above)
  // The first of each reason per interval is a warning, the next ones debug lines (RejectionLog).
  expect(["warn", "debug"]).toContain(entry.level);
  expect(entry.message).toBe("requestState rejected");
  return entry.fields?.reason;
}

// An independent re-implementation of the signing step, to forge tokens a key holder could make:
// rt3 signs the key id, the binding digest (SHA-256 of canonical [method, params]), the principal
// and the payload's bytes in one HMAC; the rt2 still read signed the token text and the canonical
// binding; rt1 signed the text alone (no longer read: a token of it is unsupported-version).
const derivedKey = (secret: string, label: string) => createHmac("sha256", Buffer.from(secret, "utf8")).update(label).digest();
const REQUEST = canonicalJson([CTX.requestMethod, CTX.requestParams]);
const DIGEST = createHash("sha256").update(`roundtrip-mcp/state/binding/v3\0${REQUEST}`).digest("base64url");

function macWith(secret: string, prefix: string, keyId: string, payload: Buffer): string {
  const signed = `${prefix}.${keyId}.${payload.toString("base64url")}`;
  if (prefix === "rt1") {
    return createHmac("sha256", derivedKey(secret, "roundtrip-mcp/state/mac-key/v1"))
      .update(`roundtrip-mcp/state/token/v1\0${signed}`)
      .digest("base64url");
  }
  if (prefix === "rt2") {
    const text = `roundtrip-mcp/state/token/v2\0${signed}\0${REQUEST}\0${JSON.stringify(PRINCIPAL)}`;
    return createHmac("sha256", derivedKey(secret, "roundtrip-mcp/state/mac-key/v2")).update(text).digest("base64url");
  }
  return createHmac("sha256", derivedKey(secret, "roundtrip-mcp/state/mac-key/v3"))
    .update(`roundtrip-mcp/state/token/v3\0${keyId}\0${DIGEST}${JSON.stringify(PRINCIPAL)}\0`)
    .update(payload)
    .digest("base64url");
}

function forge(secret: string, prefix: string, keyId: string, payloadJson: string): string {
  const payload = Buffer.from(payloadJson, "utf8");
  return `${prefix}.${keyId}.${payload.toString("base64url")}.${macWith(secret, prefix, keyId, payload)}`;
}

function partsOf(token: string) {
  const [prefix, keyId, payload, mac] = token.split(".");
  if (prefix === undefined || keyId === undefined || payload === undefined || mac === undefined)
    throw new Error(`expected a token of four dot-separated parts, got ${token}`);
  return { prefix, keyId, payload, mac, fields: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[] };
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
function flip(char: string): string {
  const at = ALPHABET.indexOf(char);
  return at < 0 ? "A" : ALPHABET[(at + 1) % ALPHABET.length]!;
}

describe("StateSealer token format", () => {
  it("is rt3.<keyId>.<payload>.<mac> with payload [3, issued, expires, tags, data]", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { prefix, keyId, mac, fields } = partsOf(token);
    expect(prefix).toBe("rt3");
    expect(keyId).toBe("A");
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const issued = Math.floor(NOW / 1000);
    expect(fields).toEqual([3, issued, issued + 300, "", DATA]);
  });

  it("is reproduced by the independent forger, so forged-token tests below are meaningful", () => {
    const { sealer } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { fields } = partsOf(token);
    expect(forge(SECRET_A, "rt3", "A", JSON.stringify(fields))).toBe(token);
    const changedData = JSON.stringify([...fields.slice(0, 4), { carried: "forged", step: 9 }]);
    expect(sealer.open(forge(SECRET_A, "rt3", "A", changedData), CTX, { principal: PRINCIPAL })).toEqual({ carried: "forged", step: 9 });
    const rt2 = JSON.stringify([2, ...fields.slice(1, 3), "rt2 tags are not read", { carried: "forged", step: 2 }]);
    expect(sealer.open(forge(SECRET_A, "rt2", "A", rt2), CTX, { principal: PRINCIPAL })).toEqual({ carried: "forged", step: 2 });
  });

  it("opens only the one base64url text of the payload's bytes", () => {
    const { sealer, logger } = makeSealer();
    const { fields } = partsOf(sealer.seal(DATA, CTX, { principal: PRINCIPAL }));
    // Payloads whose base64url ends in 2 and in 3 characters, so that the last one has stray bits.
    for (const data of [
      { ...DATA, pad: "" },
      { ...DATA, pad: "x" },
      { ...DATA, pad: "xy" },
    ]) {
      const bytes = Buffer.from(JSON.stringify([...fields.slice(0, 4), data]), "utf8");
      const text = bytes.toString("base64url");
      const token = forge(SECRET_A, "rt3", "A", bytes.toString("utf8"));
      expect(sealer.open(token, CTX, { principal: PRINCIPAL })).toEqual(data);
      const mac = token.slice(token.lastIndexOf(".") + 1);
      const variants = [
        `${text}${"=".repeat((4 - (text.length % 4)) % 4)}`,
        text.replace(/-/g, "+").replace(/_/g, "/"),
        `${text.slice(0, 8)}*${text.slice(8)}`,
        // A character above 0xff that Node's decoder reads by its low byte, the character it replaces.
        `${text.slice(0, 8)}${String.fromCharCode(0x100 | text.charCodeAt(8))}${text.slice(9)}`,
      ];
      if (text.length % 4 !== 0) {
        const last = ALPHABET.indexOf(text[text.length - 1]!);
        variants.push(text.slice(0, -1) + ALPHABET[last | (text.length % 4 === 2 ? 0x0f : 0x03)]);
      }
      for (const variant of variants.filter((v) => v !== text)) {
        expect(Buffer.from(variant, "base64url").equals(bytes)).toBe(true);
        expect(["bad-mac", "malformed"]).toContain(
          reasonOf(logger, () => sealer.open(`rt3.A.${variant}.${mac}`, CTX, { principal: PRINCIPAL })),
        );
      }
    }
  });
});

describe("StateSealer tamper resistance", () => {
  it.each([
    ["a two-key ring", makeSealer, ["bad-mac", "malformed", "unsupported-version"]],
    [
      "a lone secret",
      () => makeSealer([{ id: "default", secret: SECRET_A }]),
      ["bad-mac", "malformed", "unknown-key", "unsupported-version"],
    ],
  ] as const)("rejects one flipped character at every position (%s)", (_label, build, expectedReasons) => {
    const { sealer, logger } = build();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const reasons = new Set<unknown>();
    let attempts = 0;
    for (let i = 0; i < token.length; i++) {
      for (const replacement of [flip(token[i]!), "~"]) {
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

  it("rejects a MAC character replaced by a non-ASCII one, even right after the true MAC was checked", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    for (const at of [token.length - 1, token.length - 2, token.length - 43]) {
      const code = token.charCodeAt(at);
      // Same low byte as the original (latin1 would write it unchanged); 2 and 3 bytes of UTF-8; a lone surrogate.
      for (const replacement of [0x100 | code, 0x4e00 | code, 0xd800 | code].map((unit) => String.fromCharCode(unit))) {
        expect(sealer.open(token, CTX, { principal: PRINCIPAL })).toEqual(DATA);
        const changed = token.slice(0, at) + replacement + token.slice(at + 1);
        expect(reasonOf(logger, () => sealer.open(changed, CTX, { principal: PRINCIPAL }))).toBe("malformed");
      }
    }
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
    for (const prefix of ["rt3", "rt2"]) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_B, prefix, "A", payload), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, prefix, "B", payload), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
    }
  });

  it("rejects a swapped key id", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    expect(reasonOf(logger, () => sealer.open(token.replace(/^rt3\.A\./, "rt3.B."), CTX, { principal: PRINCIPAL }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(token.replace(/^rt3\.A\./, "rt3.C."), CTX, { principal: PRINCIPAL }))).toBe("unknown-key");
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
    for (const version of [2, 4, 0, "3", null]) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt3", "A", withVersion(version)), CTX, { principal: PRINCIPAL }))).toBe(
        "version-mismatch",
      );
    }
    for (const version of [1, 3, 0, "2", null]) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt2", "A", withVersion(version)), CTX, { principal: PRINCIPAL }))).toBe(
        "version-mismatch",
      );
    }
    for (const version of [1, 2, 3]) {
      expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt1", "A", withVersion(version)), CTX, { principal: PRINCIPAL }))).toBe(
        "unsupported-version",
      );
    }
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt4", "A", withVersion(4)), CTX, { principal: PRINCIPAL }))).toBe(
      "unsupported-version",
    );
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt4", "A", withVersion(3)), CTX, { principal: PRINCIPAL }))).toBe(
      "unsupported-version",
    );
    expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, "rt03", "A", withVersion(3)), CTX, { principal: PRINCIPAL }))).toBe(
      "unsupported-version",
    );
  });

  it("rejects a correctly signed payload of the wrong shape", () => {
    const { sealer, logger } = makeSealer();
    const { fields } = partsOf(sealer.seal(DATA, CTX, { principal: PRINCIPAL }));
    const shapes = (version: number) => [
      "not json",
      JSON.stringify({ version }),
      JSON.stringify([version, ...fields.slice(1, 4)]),
      JSON.stringify([version, ...fields.slice(1), "extra"]),
      JSON.stringify([version, "now", fields[2], fields[3], DATA]),
      JSON.stringify([version, fields[1], 1.5, fields[3], DATA]),
      JSON.stringify([version, fields[1], fields[2], 42, DATA]),
    ];
    for (const [prefix, version] of [
      ["rt3", 3],
      ["rt2", 2],
    ] as const) {
      for (const shape of shapes(version)) {
        expect(reasonOf(logger, () => sealer.open(forge(SECRET_A, prefix, "A", shape), CTX, { principal: PRINCIPAL }))).toBe("malformed");
      }
    }
  });

  it("rejects a token over 16384 bytes before parsing, and parses one of exactly 16384", () => {
    const { sealer, logger } = makeSealer();
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const over = token + "A".repeat(16385 - token.length);
    expect(over.length).toBe(16385);
    expect(reasonOf(logger, () => sealer.open(over, CTX, { principal: PRINCIPAL }))).toBe("too-large");
    expect(logger.entries[logger.entries.length - 1]!.fields).toEqual({ reason: "too-large", method: "tools/call", limit: 16384 });
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
    const sealer = new StateSealer(
      {
        keys: [
          { id: "A", secret: SECRET_A },
          { id: "B", secret: SECRET_B },
        ],
        now: () => nowMs,
      },
      logger,
    );
    const token = sealer.seal(DATA, CTX, { principal: PRINCIPAL });
    const { payload, mac } = partsOf(token);
    const other: StateBinding = {
      requestMethod: "tools/call",
      requestParams: { name: "pay", arguments: { amount: 13, payee: "PARAM-PAYEE" } },
    };
    const attempts: [unknown, StateBinding, string | null][] = [
      [42, CTX, PRINCIPAL],
      [token + "x".repeat(17000), CTX, PRINCIPAL],
      [`${token}!`, CTX, PRINCIPAL],
      [token.replace(/^rt3/, "rt9"), CTX, PRINCIPAL],
      [token.replace(/^rt3\.A/, "rt3.Z"), CTX, PRINCIPAL],
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
