import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Authorization } from "../protocol/authorization";
import type { AppLogger } from "../protocol/app-logger";
import type { InboundChecks } from "./checks/inbound-checks";
import { DEFAULT_DRAIN_MS, drainDeadline, type CloseOptions } from "./http/listen-options";
import type { FastLane } from "./lane/fast-lane";
import type { ServedConnection } from "./mcp-app-options";
import type { FactsLookup } from "./sdk-bridge";
import { ConnectionTransport } from "./stdio/connection-transport";
import type { sdkServerFactory } from "./app-sdk-servers";

/** What one served connection is made of. */
export interface ConnectionParts {
  readonly checks: InboundChecks;
  /** The fast lane, only on a transport that writes lines (stdio), never on in-memory objects. */
  readonly lane: FastLane | undefined;
  readonly principal: string | null;
  readonly authorization: Authorization | undefined;
  readonly servers: (facts: FactsLookup) => ReturnType<typeof sdkServerFactory>;
  readonly legacy: "serve" | "reject";
  readonly logger: AppLogger;
  readonly onerror: (error: Error) => void;
  /** Called once when the connection's close begins. */
  readonly closing: (served: ServedConnection) => void;
}

/**
 * Serves one connection over any SDK `Transport`: its requests pass the stream checks, the lane
 * once pinned to 2026-07-28, or the SDK's `serveStdio`; its close drains what is in flight.
 */
export function serveConnection(transport: Transport, parts: ConnectionParts): ServedConnection {
  const { principal, authorization, lane, logger } = parts;
  const connection = new ConnectionTransport(transport, parts.checks, { principal, authorization, lane });
  const handle = serveStdio(
    parts.servers((ctx) => connection.facts(ctx.mcpReq.id)),
    { transport: connection, legacy: parts.legacy, onerror: parts.onerror },
  );
  const served: ServedConnection = {
    close: async (closeOptions: CloseOptions = {}) => {
      const deadline = drainDeadline(closeOptions.drainTimeoutMs, DEFAULT_DRAIN_MS, "close");
      parts.closing(served);
      const drained = await connection.drain(deadline);
      await handle.close();
      if (drained.inFlight > 0 || drained.unfinished > 0) logger.info("connection closed", { ...drained, drainTimeoutMs: deadline });
    },
  };
  return served;
}
