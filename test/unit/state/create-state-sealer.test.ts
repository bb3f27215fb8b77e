/*
 * Pins createStateSealer, the factory from the app's `state` option:
 * - { secret }, { keys }, { keysFromEnv } and { ephemeral: true } each build a working StateSealer;
 *   ttl and now pass through;
 * - exactly one key source is required (none, two, unknown options and non-objects are TypeErrors);
 * - keysFromEnv reads comma-separated `id:base64secret` entries (first seals, all open; standard or
 *   URL-safe base64, padding optional, whitespace ignored) and interoperates with { keys } holding
 *   the same secrets;
 * - keysFromEnv errors (bad variable name, unset, empty, entry without colon, bad id, duplicate id,
 *   bad base64, secret under 32 bytes, over 8 entries) name the variable and entry, never its value;
 * - { ephemeral: true } makes a random 32-byte key per call and logs exactly one warning that it
 *   cannot serve several instances; two ephemeral sealers cannot open each other's tokens;
 *   `ephemeral: false` is refused; { secret } logs nothing;
 * - under a test runner (NODE_ENV=test, which jest and vitest set) that entry is logged at debug
 *   level instead: a MemoryLogger still records it, and an app on the default stderr logger
 *   prints nothing into the test output (checked in a child process: silent with NODE_ENV=test,
 *   the warning without it).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { MemoryLogger } from "../../../src/testing/index";
import { McpError } from "../../../src/protocol/errors";
import type { StateBinding } from "../../../src/protocol/request-context";
import { createStateSealer } from "../../../src/state/create-state-sealer";
import type { StateOptions } from "../../../src/state/state-options";
import { StateSealer } from "../../../src/state/state-sealer";

const CTX: StateBinding = { requestMethod: "prompts/get", requestParams: { name: "greet", arguments: { who: "x" } } };
const SECRET = "factory-test-secret-0123456789-abcdefghijk";
const RAW_1 = randomBytes(32);
const RAW_2 = randomBytes(48);

function create(options: unknown, env: Record<string, string | undefined> = {}, logger = new MemoryLogger()): StateSealer {
  return createStateSealer(options as StateOptions, logger, env);
}

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("createStateSealer", () => {
  it("builds from { secret } and logs nothing", () => {
    const logger = new MemoryLogger();
    const sealer = createStateSealer({ secret: SECRET }, logger);
    expect(sealer).toBeInstanceOf(StateSealer);
    expect(sealer.keyIds).toEqual(["default"]);
    expect(sealer.open(sealer.seal({ a: 1 }, CTX, { principal: "u" }), CTX, { principal: "u" })).toEqual({ a: 1 });
    expect(logger.entries).toEqual([]);
    // Same secret, same id: a direct StateSealer opens it too.
    expect(new StateSealer({ secret: SECRET }, logger).open(sealer.seal(1, CTX, { principal: null }), CTX, { principal: null })).toBe(1);
  });

  it("builds from { keys }", () => {
    const sealer = create({
      keys: [
        { id: "k2", secret: RAW_2 },
        { id: "k1", secret: RAW_1 },
      ],
    });
    expect(sealer.keyIds).toEqual(["k2", "k1"]);
  });

  it("passes ttl and now through", () => {
    const clock = { ms: 1_750_000_000_000 };
    const logger = new MemoryLogger();
    const sealer = createStateSealer({ secret: SECRET, ttl: 30, now: () => clock.ms }, logger);
    const token = sealer.seal("x", CTX, { principal: null });
    clock.ms += 29_000;
    expect(sealer.open(token, CTX, { principal: null })).toBe("x");
    clock.ms += 1_000;
    expect(() => sealer.open(token, CTX, { principal: null })).toThrow(McpError);
    expect(logger.entries[0]!.fields?.reason).toBe("expired");
  });

  it("checks the sealer options it passes on", () => {
    expect(() => create({ secret: "too-short" })).toThrow(/StateSealer: option `secret` must be at least 32 bytes/);
    expect(() => create({ secret: SECRET, ttl: 1000 })).toThrow(RangeError);
  });

  it.each([
    ["no source", {}, /one of secret, keys, keysFromEnv or ephemeral is required/],
    ["only ttl", { ttl: 60 }, /one of secret, keys, keysFromEnv or ephemeral is required/],
    [
      "two sources",
      { secret: SECRET, ephemeral: true },
      /give only one of secret, keys, keysFromEnv or ephemeral \(got secret and ephemeral\)/,
    ],
    ["three sources", { secret: SECRET, keys: [], keysFromEnv: "X" }, /got secret and keys and keysFromEnv/],
    ["an unknown option", { secret: SECRET, rotateEvery: 5 }, /unknown option "rotateEvery"/],
    ["not an object", "secret", /state options must be an object/],
    ["null", null, /state options must be an object/],
  ])("rejects %s", (_label, options, message) => {
    const error = thrownBy(() => create(options));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
  });

  describe("keysFromEnv", () => {
    const entry = (id: string, raw: Buffer, encoding: BufferEncoding = "base64") => `${id}:${raw.toString(encoding)}`;

    it("reads id:base64secret entries, the first sealing and all opening", () => {
      const env = { STATE_KEYS: `${entry("k2", RAW_2)},${entry("k1", RAW_1)}` };
      const fromEnv = create({ keysFromEnv: "STATE_KEYS" }, env);
      expect(fromEnv.keyIds).toEqual(["k2", "k1"]);
      const viaKeys = create({ keys: [{ id: "k1", secret: RAW_1 }] });
      const token = viaKeys.seal({ n: 1 }, CTX, { principal: "u" });
      expect(fromEnv.open(token, CTX, { principal: "u" })).toEqual({ n: 1 });
      const sealed = fromEnv.seal({ n: 2 }, CTX, { principal: "u" });
      expect(sealed.split(".")[1]).toBe("k2");
      expect(create({ keys: [{ id: "k2", secret: RAW_2 }] }).open(sealed, CTX, { principal: "u" })).toEqual({ n: 2 });
    });

    it("accepts URL-safe base64, missing padding and whitespace around entries", () => {
      const unpadded = RAW_1.toString("base64").replace(/=+$/, "");
      const env = { KEYS: ` a:${unpadded} ,\n b_-2:${RAW_2.toString("base64url")} ` };
      const sealer = create({ keysFromEnv: "KEYS" }, env);
      expect(sealer.keyIds).toEqual(["a", "b_-2"]);
      const token = create({ keys: [{ id: "b_-2", secret: RAW_2 }] }).seal(true, CTX, { principal: null });
      expect(sealer.open(token, CTX, { principal: null })).toBe(true);
    });

    it("reads process.env by default", () => {
      const name = "ROUNDTRIP_TEST_STATE_KEYS";
      process.env[name] = entry("env", RAW_1);
      try {
        expect(createStateSealer({ keysFromEnv: name }, new MemoryLogger()).keyIds).toEqual(["env"]);
      } finally {
        delete process.env[name];
      }
    });

    const secretText = RAW_1.toString("base64");
    const nine = Array.from({ length: 9 }, (_, i) => entry(`k${i}`, RAW_1)).join(",");
    it.each([
      [
        "unset",
        undefined,
        TypeError,
        /environment variable STATE_KEYS \(option `keysFromEnv`\) is not set or empty; expected id:base64secret entries/,
      ],
      ["empty", "  ", TypeError, /environment variable STATE_KEYS \(option `keysFromEnv`\) is not set or empty/],
      [
        "an entry without a colon",
        `k1:${secretText},${secretText}`,
        TypeError,
        /environment variable STATE_KEYS, entry 2 must have the form id:base64secret/,
      ],
      ["a trailing comma", `k1:${secretText},`, TypeError, /STATE_KEYS, entry 2 must have the form id:base64secret/],
      ["a bad id", `bad.id:${secretText}`, TypeError, /STATE_KEYS, entry 1 has an id that is not 1 to 32 characters/],
      ["an empty id", `:${secretText}`, TypeError, /STATE_KEYS, entry 1 has an id that is not 1 to 32 characters/],
      ["a duplicate id", `k1:${secretText},k1:${RAW_2.toString("base64")}`, TypeError, /STATE_KEYS, entry 2 repeats the id of entry 1/],
      [
        "a secret that is not base64",
        `k1:${secretText.slice(0, 20)}!!${secretText.slice(20)}`,
        TypeError,
        /STATE_KEYS, entry 1 has a secret that is not base64/,
      ],
      [
        "a raw (non-base64) passphrase",
        "k1:correct horse battery staple and more words",
        TypeError,
        /entry 1 has a secret that is not base64/,
      ],
      ["a base64 secret of an impossible length", `k1:${"A".repeat(45)}`, TypeError, /entry 1 has a secret that is not base64/],
      [
        "a secret under 32 bytes",
        `k1:${randomBytes(31).toString("base64")}`,
        RangeError,
        /STATE_KEYS, entry 1 has a secret shorter than 32 bytes once decoded/,
      ],
      ["nine entries", nine, RangeError, /environment variable STATE_KEYS must hold 1 to 8 keys \(got 9\)/],
    ])("rejects a variable that is %s, naming it and not echoing its value", (_label, value, type, message) => {
      const error = thrownBy(() => create({ keysFromEnv: "STATE_KEYS" }, { STATE_KEYS: value }));
      expect(error).toBeInstanceOf(type);
      expect(error.message).toMatch(message);
      if (value !== undefined && value.trim() !== "") {
        for (const part of value.split(/[,:]/).filter((p) => p.trim().length > 3)) expect(error.message).not.toContain(part.trim());
      }
    });

    it.each([
      ["", "empty"],
      ["1ABC", "starting with a digit"],
      ["A-B", "with a dash"],
      [42, "a number"],
    ] as [unknown, string][])("rejects the variable name %p (%s)", (name) => {
      const error = thrownBy(() => create({ keysFromEnv: name }, {}));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/option `keysFromEnv` must be the name of an environment variable/);
    });
  });

  describe("ephemeral", () => {
    it("works for one process and logs exactly one warning about several instances", () => {
      const logger = new MemoryLogger();
      const sealer = createStateSealer({ ephemeral: true }, logger, {});
      expect(sealer.keyIds).toEqual(["ephemeral"]);
      expect(sealer.open(sealer.seal({ a: 1 }, CTX, { principal: null }), CTX, { principal: null })).toEqual({ a: 1 });
      expect(logger.entries).toHaveLength(1);
      expect(logger.entries[0]!.level).toBe("warn");
      expect(logger.entries[0]!.message).toMatch(/ephemeral/);
      expect(logger.entries[0]!.message).toMatch(/cannot be opened by another instance/);
      expect(logger.entries[0]!.message).toMatch(/several instances/);
    });

    it("logs that entry at debug level under a test runner, where the logger still records it", () => {
      const logger = new MemoryLogger();
      createStateSealer({ ephemeral: true }, logger, { NODE_ENV: "test" });
      expect(logger.entries.map((e) => [e.level, e.fields])).toEqual([["debug", { keyId: "ephemeral" }]]);
      expect(logger.entries[0]!.message).toMatch(/sealed with an ephemeral key/);
    });

    it("keeps an app's default stderr logger quiet about it under a test runner, and only there", () => {
      const index = path.resolve(__dirname, "../../../dist/src/index.js");
      const script = `require("reflect-metadata"); require(${JSON.stringify(index)}).McpApp.create({ components: [], state: { ephemeral: true } });`;
      const { NODE_ENV: _outer, ...outside } = process.env;
      const stderrWith = (env: NodeJS.ProcessEnv): string => {
        const child = spawnSync(process.execPath, ["-e", script], { env, encoding: "utf8" });
        expect(child.status).toBe(0);
        return child.stderr;
      };
      expect(stderrWith({ ...outside, NODE_ENV: "test" })).toBe("");
      expect(stderrWith(outside)).toContain('"level":"warn","message":"requestState is sealed with an ephemeral key');
    });

    it("makes a new random key each time: another ephemeral sealer cannot open the token", () => {
      const logger = new MemoryLogger();
      const one = createStateSealer({ ephemeral: true }, new MemoryLogger());
      const two = createStateSealer({ ephemeral: true, ttl: 60 }, logger);
      const token = one.seal({ a: 1 }, CTX, { principal: null, ttl: 60 });
      expect(() => two.open(token, CTX, { principal: null })).toThrow("Invalid or expired request state");
      expect(logger.entries[logger.entries.length - 1]!.fields?.reason).toBe("bad-mac");
    });

    it.each([false, "true", 1])("refuses ephemeral: %p", (value) => {
      expect(() => create({ ephemeral: value })).toThrow(/option `ephemeral` must be exactly true/);
    });
  });
});
