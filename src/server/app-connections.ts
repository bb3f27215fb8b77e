import type { Transport } from "@modelcontextprotocol/server";
import type { Authorization } from "../protocol/authorization";
import type { AppLogger } from "../protocol/app-logger";
import type { InboundChecks } from "./checks/inbound-checks";
import { DEFAULT_DRAIN_MS, drainDeadline, type CloseOptions } from "./http/listen-options";
import type { FastLane } from "./lane/fast-lane";
import type { ServedConnection } from "./mcp-app-options";
import type { FactsLookup } from "./sdk-bridge";
import { ConnectionTransport } from "./stdio/connection-transport";
import { sdkStdio } from "./request/sdk-module";
import type { OpeningDiscover } from "./stdio/opening-discover";
import { warmDeferredSchema } from "../schema/json-schema-validator";
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
  /** Answers the opening `server/discover` before the SDK is loaded (stdio with the lane). */
  readonly opening?: OpeningDiscover;
  /** Called once when the connection's close begins. */
  readonly closing: (served: ServedConnection) => void;
}

/**
 * Serves one connection over any SDK `Transport`: its requests pass the stream checks, the lane
 * once pinned to 2026-07-28, or the SDK's `serveStdio`; its close drains what is in flight. With
 * `opening` (stdio with the lane) the SDK is attached only when a message needs it, or by the
 * warm-up after the opening `server/discover` was answered: that answer needs no SDK, nor do the
 * requests the lane answers after it (a host's tools/list and tools/call with a plain envelope).
 */
export function serveConnection(transport: Transport, parts: ConnectionParts): ServedConnection {
  const { principal, authorization, lane, logger } = parts;
  let handle: { close(): Promise<void> } | undefined;
  const warmUp = new QuietWarmUp(() => connection.prepareSdk());
  const attach = (): void => {
    handle ??= sdkStdio().serveStdio(
      parts.servers((ctx) => connection.facts(ctx.mcpReq.id)),
      { transport: connection, legacy: parts.legacy, onerror: parts.onerror },
    );
  };
  const connection = new ConnectionTransport(transport, parts.checks, {
    principal,
    authorization,
    lane,
    ...(parts.opening !== undefined && { opening: parts.opening, attach, opened: () => warmUp.arm(), activity: () => warmUp.activity() }),
  });
  if (parts.opening === undefined) attach();
  else connection.start().catch((error: unknown) => parts.onerror(error as Error));
  const served: ServedConnection = {
    close: async (closeOptions: CloseOptions = {}) => {
      const deadline = drainDeadline(closeOptions.drainTimeoutMs, DEFAULT_DRAIN_MS, "close");
      parts.closing(served);
      warmUp.stop();
      const drained = await connection.drain(deadline);
      await (handle === undefined ? connection.close() : handle.close());
      if (drained.inFlight > 0 || drained.unfinished > 0) logger.info("connection closed", { ...drained, drainTimeoutMs: deadline });
    },
  };
  return served;
}

/** How long the connection must be quiet (no message received, no request answered) after the opening answer before the warm-up starts. */
export const WARM_UP_QUIET_MS = 20;

/**
 * What the opening answer left for later, done once the connection has been quiet for
 * `WARM_UP_QUIET_MS` after that answer (a host that sends its next requests as answers arrive has
 * them answered first, each loading only what it needs), then in small steps off the event loop's
 * critical path (one `setImmediate` each): the SDK's entry (loading the SDK, and pinning it to the
 * modern era if the lane answered the first request, see `ConnectionTransport.prepareSdk`), then
 * each deferred schema compilation.
 */
class QuietWarmUp {
  private timer: NodeJS.Timeout | undefined;
  private state: "idle" | "armed" | "warming" | "stopped" = "idle";

  constructor(private readonly attach: () => void) {}

  /** The opening answer was written: the quiet starts now. */
  arm(): void {
    if (this.state !== "idle") return;
    this.state = "armed";
    this.restart();
  }

  /** A message arrived or a request was answered: the quiet starts again. */
  activity(): void {
    if (this.state === "armed") this.restart();
  }

  /** The connection closes: no warm-up (any more). */
  stop(): void {
    this.state = "stopped";
    clearTimeout(this.timer);
  }

  private restart(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), WARM_UP_QUIET_MS);
    // The warm-up never keeps a process alive on its own.
    this.timer.unref();
  }

  private run(): void {
    if (this.state !== "armed") return;
    this.state = "warming";
    this.attach();
    const step = (): void => {
      if (this.state === "warming" && warmDeferredSchema()) setImmediate(step);
    };
    setImmediate(step);
  }
}
