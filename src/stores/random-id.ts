import { randomBytes } from "node:crypto";

/** 128 random bits as 22 base64url characters: task ids, lease tokens, idempotency keys. */
export function randomId(): string {
  return randomBytes(16).toString("base64url");
}
