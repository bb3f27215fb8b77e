import { createHash } from "node:crypto";
import type { UrlElicitRequest } from "../protocol/elicit-request";
import type { InputRequest } from "../protocol/input-request";
import { isPlainObject } from "../protocol/plain-object";
import { ValidatedRequests } from "./validated-requests";

/**
 * The `elicitationId` of a URL question: SHA-256 over the flow's scope and the question's key,
 * base64url, 22 characters. The same question of the same flow gets the same id on every round and
 * on every instance (nothing is stored), and the id says nothing about the scope it came from.
 *
 * 2025-11-25 requires the field on URL-mode params; 2026-07-28 removed it but does not forbid it,
 * and hosts that speak both (Codex) refuse a URL question without it. The scope is the flow's
 * operation id for `@Elicit`, the task id for a task's `ask`, and the principal with the URL for a
 * hand-written question without one (whose URL should then name its flow).
 *
 * @example elicitationIdOf("op-7f3a", "consent") // "v0c3…" (22 characters)
 */
export function elicitationIdOf(scope: string, key: string): string {
  return createHash("sha256").update("roundtrip-mcp elicitation\0").update(scope).update("\0").update(key).digest("base64url").slice(0, 22);
}

/** True for a URL-mode `elicitation/create`. */
export function isUrlQuestion(request: InputRequest): request is UrlElicitRequest {
  return request.method === "elicitation/create" && isPlainObject(request.params) && request.params.mode === "url";
}

/**
 * `request` with `elicitationId` (appended last), as a new frozen request; a request that is not a
 * URL question, or already carries an id, is returned as it is.
 */
export function withElicitationId(request: InputRequest, id: string): InputRequest {
  if (!isUrlQuestion(request) || typeof (request.params as { elicitationId?: unknown }).elicitationId === "string") return request;
  // Checked when it was built; the id adds nothing to check.
  return ValidatedRequests.add(Object.freeze({ ...request, params: Object.freeze({ ...request.params, elicitationId: id }) }));
}

/**
 * Every URL question of `requests` with an `elicitationId` of `scope` and its key; the same object
 * when none lacked one.
 */
export function withElicitationIds(
  requests: Record<string, InputRequest>,
  scope: (key: string, request: UrlElicitRequest) => string,
): Record<string, InputRequest> {
  let out: Record<string, InputRequest> | undefined;
  for (const key of Object.keys(requests)) {
    const request = requests[key]!;
    const stamped = isUrlQuestion(request) ? withElicitationId(request, elicitationIdOf(scope(key, request), key)) : request;
    if (stamped !== request) (out ??= { ...requests })[key] = stamped;
  }
  return out ?? requests;
}
