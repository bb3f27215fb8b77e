// The StateSealer's options and the checks of them, apart from the sealing itself.

import type { StateKey } from "./key-ring";

/** Default lifetime of a sealed state, in seconds. */
export const STATE_TTL_DEFAULT_SECONDS = 300;
/** Longest lifetime a sealed state may have, in seconds. */
export const STATE_TTL_MAX_SECONDS = 900;
/** Largest token accepted at seal or open, in bytes (16 KiB). */
export const STATE_TOKEN_MAX_BYTES = 16384;
/** The one message every failed `open` reaches the wire with (code -32602). */
export const INVALID_STATE_MESSAGE = "Invalid or expired request state";

/** Why `open` refused a token. Logged (field `reason`), never sent on the wire. */
export type StateRejectReason =
  /** Not a string. */
  | "not-a-string"
  /** Over STATE_TOKEN_MAX_BYTES, refused before parsing. */
  | "too-large"
  /** Not `rt<version>.<keyId>.<payload>.<mac>`, or a payload that is not the expected array. */
  | "malformed"
  /** A prefix version this sealer does not read. */
  | "unsupported-version"
  /** A key id that is not in the ring (removed after rotation, or forged). */
  | "unknown-key"
  /** The MAC does not match: tampered, or sealed with another secret. */
  | "bad-mac"
  /** The version inside the payload differs from the prefix version. */
  | "version-mismatch"
  /** Issued later than now (clock skew between instances, or forged). */
  | "issued-in-future"
  /** now >= expires. */
  | "expired"
  /** The token's lifetime (expires - issued) is longer than the ttl given to open. */
  | "lifetime-exceeds-ttl"
  /** Sealed for another method or other salient params. */
  | "other-request"
  /** Sealed for another principal (or anonymous vs named). */
  | "other-principal";

export interface CommonStateOptions {
  /** Default lifetime in seconds for seal and open: an integer from 1 to 900; 300 if unset. */
  readonly ttl?: number;
  /**
   * The clock, in **milliseconds** since the epoch (like `Date.now`, the default). Tokens carry
   * whole seconds: `issued = Math.floor(now() / 1000)`. Inject it in tests.
   */
  readonly now?: () => number;
}

/**
 * How a StateSealer is built (also the app's `state` option): where the signing keys come from,
 * exactly one of
 *
 * - `{ secret }`: one secret of at least 32 random bytes (a string is used as its UTF-8 bytes), key id "default";
 * - `{ keys }`: a key ring of 1 to 8 `{ id, secret }` with unique ids, the first sealing and all opening;
 * - `{ keysFromEnv: "VAR" }`: a key ring read from that environment variable, written as
 *   comma-separated `id:base64secret` entries, the first sealing, e.g.
 *   `STATE_KEYS="k2:q83vEjRWeJq8...,k1:AAECAwQFBgc..."` (standard or URL-safe base64 of at
 *   least 32 bytes each; whitespace around entries ignored);
 * - `{ ephemeral: true }`: a random 32-byte secret for this process only, for local development.
 *   Tokens die with the process and cannot be opened by another instance; a warning is logged.
 *
 * @example const state: StateOptions = { keysFromEnv: "STATE_KEYS", ttl: 600 };
 */
export type StateOptions =
  | (CommonStateOptions & {
      readonly secret: string | Buffer;
      readonly keys?: never;
      readonly keysFromEnv?: never;
      readonly ephemeral?: never;
    })
  | (CommonStateOptions & {
      readonly keys: readonly StateKey[];
      readonly secret?: never;
      readonly keysFromEnv?: never;
      readonly ephemeral?: never;
    })
  | (CommonStateOptions & { readonly keysFromEnv: string; readonly secret?: never; readonly keys?: never; readonly ephemeral?: never })
  | (CommonStateOptions & { readonly ephemeral: true; readonly secret?: never; readonly keys?: never; readonly keysFromEnv?: never });

/** Per-call options of `seal` and `open`. Pass the same ones to both. */
export interface StateSealOptions {
  /**
   * Required. The authenticated principal from trusted authentication context, or `null` for
   * anonymous. A token sealed for one principal opens for no other, and not for anonymous.
   */
  readonly principal: string | null;
  /**
   * Lifetime in seconds (1 to 900); if unset, the sealer's default (in a call of a 2025 session, at
   * least the session's wait for the answer plus 60 s). At open: the longest lifetime accepted.
   */
  readonly ttl?: number;
}

const CALL_OPTIONS: ReadonlySet<string> = new Set(["principal", "ttl"]);

/** A lifetime in whole seconds from 1 to STATE_TTL_MAX_SECONDS, or a RangeError naming `where`. */
export function checkTtl(ttl: unknown, where: string): number {
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > STATE_TTL_MAX_SECONDS) {
    throw new RangeError(`${where} must be a whole number of seconds from 1 to ${STATE_TTL_MAX_SECONDS}`);
  }
  return ttl;
}

/** The principal and lifetime of one seal or open call, or a TypeError/RangeError naming what is wrong. */
export function callOptionsOf(
  call: "seal" | "open",
  options: StateSealOptions,
  defaultTtl: number,
): { principal: string | null; ttl: number } {
  const owner = `StateSealer.${call}`;
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${owner}: options { principal } are required (principal: a string, or null for anonymous)`);
  }
  for (const name of Object.keys(options)) {
    if (!CALL_OPTIONS.has(name)) throw new TypeError(`${owner}: unknown option ${JSON.stringify(name)}; expected principal and ttl`);
  }
  const { principal, ttl } = options as { principal?: unknown; ttl?: unknown };
  if (principal === undefined) {
    throw new TypeError(`${owner}: option \`principal\` is required: the authenticated principal, or null for anonymous`);
  }
  if (principal !== null && (typeof principal !== "string" || principal === "")) {
    throw new TypeError(`${owner}: option \`principal\` must be a non-empty string, or null for anonymous`);
  }
  return { principal, ttl: ttl === undefined ? defaultTtl : checkTtl(ttl, `${owner}: option \`ttl\``) };
}
