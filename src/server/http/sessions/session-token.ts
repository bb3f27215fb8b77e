import { randomBytes } from "node:crypto";
import type { StateSealer } from "../../../state/state-sealer";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { JsonObject } from "../../../protocol/wire-types";
import { isPlainObject } from "../../../protocol/plain-object";

/** What a 2025 client said at `initialize`: every instance re-creates the session from it. */
export interface SessionFacts {
  readonly protocolVersion: string;
  readonly capabilities: JsonObject;
  readonly clientInfo: JsonObject;
}

// A session id travels in a header: node refuses request heads over 16 KiB in all.
const MAX_ID_CHARS = 4096;
const BINDING = { requestMethod: "roundtrip-mcp/2025-session", requestParams: {} };

/**
 * A session id is the client's `initialize` facts sealed with the app's key ring, bound to the
 * principal that opened it and valid for `lifetimeMs`: any instance sharing the ring reads them,
 * no instance stores them, and no other principal can use the id.
 */
export class SessionToken {
  constructor(
    private readonly sealer: StateSealer,
    private readonly lifetimeMs: number,
  ) {}

  seal(facts: SessionFacts, principal: string | null): string {
    const seconds = Math.ceil(this.lifetimeMs / 1000);
    // A nonce: two clients saying the same at initialize in the same second get two sessions.
    const nonce = randomBytes(12).toString("base64url");
    const id = this.sealer.sealLongLived([facts.protocolVersion, facts.capabilities, facts.clientInfo, nonce], BINDING, principal, seconds);
    if (id.length <= MAX_ID_CHARS) return id;
    // Capabilities this large are mostly experimental keys: keep the ones a round reads.
    const kept: JsonObject = {};
    for (const name of ["elicitation", "sampling", "roots"])
      if (facts.capabilities[name] !== undefined) kept[name] = facts.capabilities[name];
    const name = typeof facts.clientInfo.name === "string" ? facts.clientInfo.name.slice(0, 128) : "client";
    return this.sealer.sealLongLived([facts.protocolVersion, kept, { name, version: "0" }, nonce], BINDING, principal, seconds);
  }

  /** The facts of a session id sealed for `principal` and not expired, else undefined. */
  open(id: string, principal: string | null): SessionFacts | undefined {
    let data: JsonValue;
    try {
      data = this.sealer.openLongLived(id, BINDING, principal, Math.ceil(this.lifetimeMs / 1000));
    } catch {
      return undefined;
    }
    if (!Array.isArray(data) || data.length !== 4) return undefined;
    const [protocolVersion, capabilities, clientInfo] = data;
    if (typeof protocolVersion !== "string" || !isPlainObject(capabilities) || !isPlainObject(clientInfo)) return undefined;
    return { protocolVersion, capabilities: capabilities as JsonObject, clientInfo: clientInfo as JsonObject };
  }
}

/** The facts of an `initialize` request's params, or undefined when they are not what the 2025 schema says. */
export function factsOfInitialize(params: unknown): SessionFacts | undefined {
  if (!isPlainObject(params)) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params as JsonObject;
  if (typeof protocolVersion !== "string" || !isPlainObject(capabilities) || !isPlainObject(clientInfo)) return undefined;
  return { protocolVersion, capabilities: capabilities as JsonObject, clientInfo: clientInfo as JsonObject };
}
