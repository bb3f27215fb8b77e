import { isPlainObject } from "../../protocol/plain-object";
import { MODERN_PROTOCOL_VERSION } from "../checks/inbound-checks";
import { SERVER_INFO_META_KEY } from "../request/sdk-module";
import { knownModernEnvelope } from "../checks/known-envelope";
import type { ServerInfo } from "../request/app-info";

/** What a `server/discover` result is made of: what the SDK's `Server` answers it with. */
export interface DiscoverParts {
  readonly serverInfo: ServerInfo;
  readonly instructions?: string | undefined;
}

/**
 * The opening `server/discover` of a stdio connection, answered before the SDK is loaded: a host
 * falls back to `initialize` when the answer takes longer than about 0.6 s (issue 24), and
 * loading the SDK takes a good part of that. `take` accepts only a request the SDK's `serveStdio`
 * is known to accept as it is (a strict subset of a valid 2026-07-28 envelope, `knownModernEnvelope`), and the
 * answer is the bytes the SDK writes for it (pinned by test/e2e/stdio-startup.e2e.test.ts against
 * the SDK path); anything else returns undefined and takes the SDK path.
 */
export class OpeningDiscover {
  private readonly head: string;

  constructor(capabilities: Record<string, unknown>, parts: DiscoverParts) {
    const result =
      `{"supportedVersions":[${JSON.stringify(MODERN_PROTOCOL_VERSION)}],"capabilities":${JSON.stringify(capabilities)}` +
      (parts.instructions ? `,"instructions":${JSON.stringify(parts.instructions)}` : "") +
      `,"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{${JSON.stringify(SERVER_INFO_META_KEY)}:${JSON.stringify(parts.serverInfo)}}}`;
    this.head = `{"result":${result},"jsonrpc":"2.0","id":`;
  }

  /** The answer's line when this message is a `server/discover` answered here, else undefined. */
  take(message: unknown): string | undefined {
    if (!isPlainObject(message) || message.method !== "server/discover" || message.jsonrpc !== "2.0") return undefined;
    let keys = 0;
    for (const _ in message) keys++;
    const { id, params } = message;
    if (keys !== 4 || (typeof id !== "string" && !Number.isSafeInteger(id)) || !isPlainObject(params)) return undefined;
    for (const key in params) if (key !== "_meta") return undefined;
    if (!isPlainObject(params._meta) || !knownModernEnvelope(params._meta)) return undefined;
    return `${this.head}${JSON.stringify(id)}}`;
  }
}
