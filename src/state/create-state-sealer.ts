import { type AppLogger, StderrLogger } from "../protocol/app-logger";
import type { StateOptions } from "./state-options";
import { StateSealer } from "./state-sealer";

const SOURCES = ["secret", "keys", "keysFromEnv", "ephemeral"] as const;
const KNOWN: ReadonlySet<string> = new Set([...SOURCES, "ttl", "now"]);

/**
 * The app's StateSealer from its `state` option: the same as `new StateSealer(state)`, with
 * shape errors that name the `state` option the user wrote. Errors are thrown at startup, as
 * TypeError or RangeError naming the option (and the variable, for `keysFromEnv`); they never
 * contain a secret or the variable's value.
 *
 * @param env where `keysFromEnv` looks (default `process.env`).
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
      throw new TypeError(
        `state options: unknown option ${JSON.stringify(name)}; expected one of secret, keys, keysFromEnv, ephemeral, and optionally ttl and now`,
      );
    }
  }
  const given = SOURCES.filter((name) => options[name] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(
      given.length === 0
        ? "state options: one of secret, keys, keysFromEnv or ephemeral is required"
        : `state options: give only one of secret, keys, keysFromEnv or ephemeral (got ${given.join(" and ")})`,
    );
  }
  return new StateSealer(options, logger, env);
}
