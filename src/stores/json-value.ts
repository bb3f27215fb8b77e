import type { JsonValue } from "../protocol/canonical-json";

/**
 * A JSON value as the stores keep it (the one JsonValue of the project). Stores write values with
 * `JSON.stringify` and hand back what `JSON.parse` reads, on every store alike: `undefined`
 * properties are dropped, `NaN` becomes null, and a value JSON cannot write (a bigint, a cycle)
 * is refused with a TypeError.
 */
export type { JsonValue };
