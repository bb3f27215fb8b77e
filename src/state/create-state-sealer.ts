import { randomBytes } from "node:crypto";
import { type AppLogger, StderrLogger } from "../protocol/app-logger";
import { parseKeyRingText, type StateKey } from "./key-ring";
import { StateSealer } from "./state-sealer";

interface CommonStateOptions {
  /** Default lifetime in seconds, 1 to 900 (300 if unset). */
  readonly ttl?: number;
  /** Clock in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * The app's `state` option: where the signing keys come from. Exactly one of:
 *
 * - `{ secret }`: one secret of at least 32 random bytes (a string is used as its UTF-8 bytes);
 * - `{ keys }`: a key ring of 1 to 8 `{ id, secret }`, the first sealing and all opening;
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
  | (CommonStateOptions & { readonly secret: string | Buffer; readonly keys?: never; readonly keysFromEnv?: never; readonly ephemeral?: never })
  | (CommonStateOptions & { readonly keys: readonly StateKey[]; readonly secret?: never; readonly keysFromEnv?: never; readonly ephemeral?: never })
  | (CommonStateOptions & { readonly keysFromEnv: string; readonly secret?: never; readonly keys?: never; readonly ephemeral?: never })
  | (CommonStateOptions & { readonly ephemeral: true; readonly secret?: never; readonly keys?: never; readonly keysFromEnv?: never });

/** Key id of the process-lifetime key made by `{ ephemeral: true }`. */
export const EPHEMERAL_KEY_ID = "ephemeral";

const SOURCES = ["secret", "keys", "keysFromEnv", "ephemeral"] as const;
const KNOWN: ReadonlySet<string> = new Set([...SOURCES, "ttl", "now"]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Builds the app's StateSealer from its `state` option. Configuration errors are thrown here, at
 * startup, as TypeError or RangeError naming the option (and the variable, for `keysFromEnv`);
 * they never contain a secret or the variable's value.
 *
 * @param env where `keysFromEnv` looks (default `process.env`).
 * @example const sealer = createStateSealer({ keysFromEnv: "STATE_KEYS" }, logger);
 */
export function createStateSealer(
  options: StateOptions,
  logger: AppLogger = new StderrLogger(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): StateSealer {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError("state options must be an object with one of secret, keys, keysFromEnv or ephemeral");
  }
  for (const name of Object.keys(options)) {
    if (!KNOWN.has(name)) {
      throw new TypeError(`state options: unknown option ${JSON.stringify(name)}; expected one of secret, keys, keysFromEnv, ephemeral, and optionally ttl and now`);
    }
  }
  const given = SOURCES.filter((name) => (options as unknown as Record<string, unknown>)[name] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(
      given.length === 0
        ? "state options: one of secret, keys, keysFromEnv or ephemeral is required"
        : `state options: give only one of secret, keys, keysFromEnv or ephemeral (got ${given.join(" and ")})`,
    );
  }
  const { ttl, now } = options;
  const common = { ...(ttl !== undefined && { ttl }), ...(now !== undefined && { now }) };

  if (options.secret !== undefined) return new StateSealer({ secret: options.secret, ...common }, logger);
  if (options.keys !== undefined) return new StateSealer({ keys: options.keys, ...common }, logger);
  if (options.keysFromEnv !== undefined) {
    return new StateSealer({ keys: readKeyRing(options.keysFromEnv, env), ...common }, logger);
  }
  if (options.ephemeral !== true) {
    throw new TypeError("state options: option `ephemeral` must be exactly true");
  }
  const sealer = new StateSealer({ keys: [{ id: EPHEMERAL_KEY_ID, secret: randomBytes(32) }], ...common }, logger);
  logger.warn(
    "requestState is sealed with an ephemeral key (state: { ephemeral: true }): tokens die with this process and cannot be opened by another instance; use secret, keys or keysFromEnv to serve several instances",
    { keyId: EPHEMERAL_KEY_ID },
  );
  return sealer;
}

function readKeyRing(variable: unknown, env: Readonly<Record<string, string | undefined>>): StateKey[] {
  if (typeof variable !== "string" || !ENV_NAME.test(variable)) {
    throw new TypeError("state options: option `keysFromEnv` must be the name of an environment variable (letters, digits, _)");
  }
  const text = env[variable];
  if (text === undefined || text.trim() === "") {
    throw new TypeError(`state options: environment variable ${variable} (option \`keysFromEnv\`) is not set or empty; expected id:base64secret entries separated by commas`);
  }
  return parseKeyRingText(text, variable);
}
