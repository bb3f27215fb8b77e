import { createHash } from "node:crypto";
import { canonicalJson } from "../protocol/canonical-json";
import { ErrorCode, McpError } from "../protocol/errors";
import type { JsonObject } from "../protocol/wire-types";
import type { StateSealer } from "../state/state-sealer";

/** Seconds a list cursor stays good (the sealer's longest lifetime). */
export const CURSOR_TTL_SECONDS = 900;

/** The one answer to a cursor that is not good here: what went wrong and the fix, nothing more. */
export const INVALID_CURSOR_MESSAGE =
  "Invalid or expired cursor: list again without a cursor. A cursor is good only for the list and the caller it was issued to, " +
  `while that list is unchanged, for ${CURSOR_TTL_SECONDS / 60} minutes`;

/**
 * Digests of entries and of whole lists, made once each: a listed entry (a descriptor made at
 * bootstrap) and a list handed to `listResult` are never changed afterwards.
 */
const entryDigests = new WeakMap<object, string>();
const listDigests = new WeakMap<readonly JsonObject[], string>();

/**
 * The content digest of one caller's view of a list: its entries, in order. A list filtered per
 * request is a new array of the same entry objects, so only the join of their digests is hashed.
 */
export function listDigestOf(entries: readonly JsonObject[]): string {
  let digest = listDigests.get(entries);
  if (digest !== undefined) return digest;
  const hash = createHash("sha256");
  for (const entry of entries) {
    let one = entryDigests.get(entry);
    if (one === undefined) {
      one = createHash("sha256").update(canonicalJson(entry)).digest("base64url");
      entryDigests.set(entry, one);
    }
    hash.update(one);
  }
  digest = hash.digest("base64url");
  listDigests.set(entries, digest);
  return digest;
}

/**
 * Opaque list cursors: the next page's offset sealed by the app's `StateSealer` (its key ring,
 * its rotation) and bound to the list method, the caller's principal and the digest of the
 * caller's view of the list. A cursor cannot be forged, nor used on another list, by another
 * caller, or after the list changed: each of those fails to open, as -32602.
 */
export class ListCursors {
  constructor(private readonly sealer: () => StateSealer) {}

  seal(method: string, principal: string | null, digest: string, offset: number): string {
    return this.sealer().seal(offset, bindingOf(method, digest), { principal, ttl: CURSOR_TTL_SECONDS });
  }

  /** The offset `cursor` was sealed with, if it is good for this list, caller and view; else -32602. */
  open(cursor: unknown, method: string, principal: string | null, digest: string, length: number): number {
    let offset: unknown;
    try {
      offset = this.sealer().open(cursor, bindingOf(method, digest), { principal, ttl: CURSOR_TTL_SECONDS });
    } catch {
      throw new McpError(ErrorCode.InvalidParams, INVALID_CURSOR_MESSAGE);
    }
    if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 1 || offset >= length)
      throw new McpError(ErrorCode.InvalidParams, INVALID_CURSOR_MESSAGE);
    return offset;
  }
}

/** What a cursor is bound to: a method no request carries, so a cursor never opens as a requestState. */
function bindingOf(method: string, digest: string) {
  return { requestMethod: `roundtrip-mcp/cursor:${method}`, requestParams: { list: digest } };
}
