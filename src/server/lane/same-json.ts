import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";

/**
 * Whether two JSON values are equal (objects by their keys whatever the order: the SDK's verdict
 * does not depend on it). The walk is bounded by `seen` (the lane keeps envelopes of at most 2,048 characters).
 */
export function sameJson(value: unknown, seen: unknown): boolean {
  if (value === seen) return true;
  if (typeof value !== "object" || typeof seen !== "object" || value === null || seen === null) return false;
  if (Array.isArray(seen)) {
    if (!Array.isArray(value) || value.length !== seen.length) return false;
    for (let i = 0; i < seen.length; i++) if (!sameJson(value[i], seen[i])) return false;
    return true;
  }
  if (Array.isArray(value) || !isPlainObject(value)) return false;
  const stored = seen as JsonObject;
  let keys = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(stored, key) || !sameJson(value[key], stored[key])) return false;
    keys++;
  }
  for (const _ in stored) keys--;
  return keys === 0;
}
