import { createHmac, randomBytes } from "node:crypto";
import type { AppLogger } from "../protocol/app-logger";

/** One signing key of a key ring. The secret is cryptographically random, at least 32 bytes. */
export interface StateKey {
  /** 1 to 32 characters of `A-Za-z0-9_-`; written in clear into every token it seals. */
  readonly id: string;
  /** A string is used as its UTF-8 bytes; a Buffer as is. */
  readonly secret: string | Buffer;
}

/** Shortest accepted secret, in bytes. */
export const STATE_SECRET_MIN_BYTES = 32;

/** How to make a secret, as every "too short" error says it. */
export const MAKE_SECRET_HINT = `make one with: node -e "console.log(require('crypto').randomBytes(${STATE_SECRET_MIN_BYTES}).toString('base64'))"`;
/** Most keys a ring may hold. */
export const STATE_KEY_RING_MAX_KEYS = 8;
/** What a key id may look like. */
export const STATE_KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
/** The id a lone `secret` option gets, so that it can later join a ring under this id. */
export const DEFAULT_KEY_ID = "default";
/** Key id of the process-lifetime key made by `{ ephemeral: true }`. */
export const EPHEMERAL_KEY_ID = "ephemeral";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Keys derived from one secret; the secret itself is not kept. */
export interface DerivedKey {
  readonly id: string;
  /** The HMAC key that signs an rt3 token together with its binding (the one HMAC of a seal or an open). */
  readonly mac: Buffer;
  /** The HMAC key of the previous token format, rt2, which `open` still reads (see `rt2-token.ts`). */
  readonly rt2: { readonly mac: Buffer };
}

// One key per use and format, each labelled, so that no value computed for one use can be
// replayed as another (an rt2 MAC as an rt3 one).
const MAC_KEY_LABEL = "roundtrip-mcp/state/mac-key/v3";
const RT2_MAC_KEY_LABEL = "roundtrip-mcp/state/mac-key/v2";

/**
 * The checked, derived keys of a StateSealer: seals with the first, opens with any.
 * Built from either a single secret or a list of `{id, secret}`.
 */
export class KeyRing {
  private readonly byId: ReadonlyMap<string, DerivedKey>;

  private constructor(
    readonly signing: DerivedKey,
    keys: readonly DerivedKey[],
  ) {
    this.byId = new Map(keys.map((key) => [key.id, key]));
  }

  /** The key with this id, or undefined. */
  find(id: string): DerivedKey | undefined {
    return this.byId.get(id);
  }

  /** Ids in ring order (the first one seals). */
  get ids(): string[] {
    return [...this.byId.keys()];
  }

  /**
   * The ring of one key source (`StateOptions`, checked to hold exactly one): a secret, a list of
   * keys, keys read from an environment variable, or an ephemeral key (logged as a warning; at debug level
   * when `env.NODE_ENV` is "test").
   */
  static fromSource(
    source: { secret?: unknown; keys?: unknown; keysFromEnv?: unknown; ephemeral?: unknown },
    owner: string,
    env: Readonly<Record<string, string | undefined>>,
    logger: AppLogger,
  ): KeyRing {
    if (source.secret !== undefined) return KeyRing.fromSecret(source.secret, owner);
    if (source.keys !== undefined) return KeyRing.fromKeys(source.keys, owner);
    if (source.keysFromEnv !== undefined) return KeyRing.fromKeys(readKeyRing(source.keysFromEnv, env, owner), owner);
    if (source.ephemeral !== true) throw new TypeError(`${owner}: option \`ephemeral\` must be exactly true`);
    // Under a test runner (jest and vitest set NODE_ENV=test) an ephemeral key is the normal case:
    // the entry goes to debug, out of the test output, and a MemoryLogger still records it.
    const log = env.NODE_ENV === "test" ? logger.debug : logger.warn;
    log.call(
      logger,
      "requestState is sealed with an ephemeral key (state: { ephemeral: true }): tokens die with this process and cannot be opened by another instance; use secret, keys or keysFromEnv to serve several instances",
      { keyId: EPHEMERAL_KEY_ID },
    );
    return KeyRing.fromKeys([{ id: EPHEMERAL_KEY_ID, secret: randomBytes(32) }], owner);
  }

  /** A ring of one key with id "default". `owner` prefixes error messages. */
  static fromSecret(secret: unknown, owner: string): KeyRing {
    const key = derive(DEFAULT_KEY_ID, checkSecret(secret, `${owner}: option \`secret\``));
    return new KeyRing(key, [key]);
  }

  /** A ring from a list of `{id, secret}`; the first seals. `owner` prefixes error messages. */
  static fromKeys(keys: unknown, owner: string): KeyRing {
    const where = `${owner}: option \`keys\``;
    if (!Array.isArray(keys)) throw new TypeError(`${where} must be an array of {id, secret}`);
    if (keys.length < 1 || keys.length > STATE_KEY_RING_MAX_KEYS) {
      throw new RangeError(`${where} must hold 1 to ${STATE_KEY_RING_MAX_KEYS} keys (got ${keys.length})`);
    }
    const derived: DerivedKey[] = [];
    const seen = new Map<string, number>();
    keys.forEach((entry: unknown, i: number) => {
      const at = `${owner}: option \`keys[${i}]\``;
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        throw new TypeError(`${at} must be an object {id, secret}`);
      }
      for (const name of Object.keys(entry)) {
        if (name !== "id" && name !== "secret") {
          throw new TypeError(`${at} has an unknown field ${JSON.stringify(name)}; expected only id and secret`);
        }
      }
      const { id, secret } = entry as { id?: unknown; secret?: unknown };
      // The id is not echoed: a misplaced secret would otherwise land in the message.
      if (typeof id !== "string" || !STATE_KEY_ID_PATTERN.test(id)) {
        throw new TypeError(`${at}.id must be 1 to 32 characters of A-Za-z0-9_-`);
      }
      const first = seen.get(id);
      if (first !== undefined) throw new TypeError(`${at}.id repeats the id of keys[${first}]; ids must be unique`);
      seen.set(id, i);
      derived.push(derive(id, checkSecret(secret, `${at}.secret`)));
    });
    // keys holds at least one entry (checked above) and each one pushed its key.
    return new KeyRing(derived[0]!, derived);
  }
}

/**
 * Parses the key ring format of `keysFromEnv`: comma-separated `id:base64secret` entries, the
 * first one sealing, e.g. `k2:<base64>,k1:<base64>`. Whitespace around entries is ignored; the
 * secret is standard or URL-safe base64 (padding optional) of at least 32 bytes. Errors name
 * the variable and the entry position, never any part of the value.
 */
export function parseKeyRingText(text: string, variable: string): StateKey[] {
  const where = `environment variable ${variable}`;
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.length > STATE_KEY_RING_MAX_KEYS) {
    throw new RangeError(`${where} must hold 1 to ${STATE_KEY_RING_MAX_KEYS} keys (got ${entries.length})`);
  }
  const seen = new Map<string, number>();
  return entries.map((entry, i) => {
    const at = `${where}, entry ${i + 1}`;
    const colon = entry.indexOf(":");
    if (colon < 0) throw new TypeError(`${at} must have the form id:base64secret`);
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1);
    if (!STATE_KEY_ID_PATTERN.test(id)) throw new TypeError(`${at} has an id that is not 1 to 32 characters of A-Za-z0-9_-`);
    const first = seen.get(id);
    if (first !== undefined) throw new TypeError(`${at} repeats the id of entry ${first + 1}; ids must be unique`);
    seen.set(id, i);
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) || encoded.replace(/=+$/, "").length % 4 === 1) {
      throw new TypeError(`${at} has a secret that is not base64`);
    }
    const secret = Buffer.from(encoded, "base64");
    if (secret.length < STATE_SECRET_MIN_BYTES) {
      throw new RangeError(`${at} has a secret shorter than ${STATE_SECRET_MIN_BYTES} bytes once decoded; ${MAKE_SECRET_HINT}`);
    }
    return { id, secret };
  });
}

function readKeyRing(variable: unknown, env: Readonly<Record<string, string | undefined>>, owner: string): StateKey[] {
  if (typeof variable !== "string" || !ENV_NAME.test(variable)) {
    throw new TypeError(`${owner}: option \`keysFromEnv\` must be the name of an environment variable (letters, digits, _)`);
  }
  const text = env[variable];
  if (text === undefined || text.trim() === "") {
    throw new TypeError(
      `${owner}: environment variable ${variable} (option \`keysFromEnv\`) is not set or empty; expected id:base64secret entries separated by commas`,
    );
  }
  return parseKeyRingText(text, variable);
}

function checkSecret(secret: unknown, where: string): Buffer {
  if (secret === undefined) throw new TypeError(`${where} is required`);
  let bytes: Buffer;
  if (typeof secret === "string") bytes = Buffer.from(secret, "utf8");
  else if (Buffer.isBuffer(secret)) bytes = secret;
  else throw new TypeError(`${where} must be a string or a Buffer`);
  if (bytes.length < STATE_SECRET_MIN_BYTES) {
    throw new RangeError(
      `${where} must be at least ${STATE_SECRET_MIN_BYTES} bytes of cryptographically random data (a password or a word is not a secret); ${MAKE_SECRET_HINT}`,
    );
  }
  return bytes;
}

function derive(id: string, secret: Buffer): DerivedKey {
  const keyed = (label: string) => createHmac("sha256", secret).update(label).digest();
  return {
    id,
    mac: keyed(MAC_KEY_LABEL),
    rt2: { mac: keyed(RT2_MAC_KEY_LABEL) },
  };
}
