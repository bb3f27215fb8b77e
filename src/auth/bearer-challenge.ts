/** The `WWW-Authenticate` values of the Bearer scheme (RFC 6750 section 3, RFC 9728 section 5.1). */

/** A quoted-string parameter value: only the characters a scope list, URL or sentence of ours can hold. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

function scopePart(scopes: readonly string[]): string {
  return scopes.length === 0 ? "" : `, scope=${quoted(scopes.join(" "))}`;
}

/** 401 for a request with no bearer token: where the metadata is, and the scopes for basic use. */
export function missingTokenChallenge(metadataUrl: string, scopes: readonly string[]): string {
  return `Bearer resource_metadata=${quoted(metadataUrl)}${scopePart(scopes)}`;
}

/** 401 for a token that is invalid, expired, or not for this resource. */
export function invalidTokenChallenge(metadataUrl: string, scopes: readonly string[]): string {
  return `Bearer error="invalid_token", error_description="The access token is invalid or expired", resource_metadata=${quoted(metadataUrl)}${scopePart(scopes)}`;
}

/** 403 for a token without every scope the operation needs: all of them, in one challenge. */
export function insufficientScopeChallenge(metadataUrl: string, required: readonly string[]): string {
  return `Bearer error="insufficient_scope", error_description="The access token lacks a scope this operation needs", resource_metadata=${quoted(metadataUrl)}${scopePart(required)}`;
}

/** 400 for a malformed authorization request (a bad Authorization header, a token in the query). */
export function invalidRequestChallenge(metadataUrl: string, description: string): string {
  return `Bearer error="invalid_request", error_description=${quoted(description)}, resource_metadata=${quoted(metadataUrl)}`;
}
