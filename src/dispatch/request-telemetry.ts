import type { ComponentDefinition } from "../features/component-definition";
import type { InboundRequest } from "../protocol/inbound-request";
import type { JsonObject } from "../protocol/wire-types";

/**
 * What the dispatcher tells an observer of its requests (the OpenTelemetry spans and metrics of
 * `telemetry/`). The dispatcher calls it only when the app enabled telemetry: without it, the
 * request path makes no call and no object for it.
 */
export interface RequestTelemetry {
  /**
   * Answers `request` through `answer` inside its span, and records the outcome. `answer` gets the
   * id of the trace the request belongs to (for the log entries it makes).
   */
  handle(request: InboundRequest, answer: (traceId: string | undefined) => Promise<JsonObject>): Promise<JsonObject>;
  /** A carried flow's round began: its number (1 on the first), and whether it opened the state the request carried. */
  round(request: InboundRequest, round: number, opened: boolean): void;
  /**
   * Runs one attempt of a task's method in a span of its own, linked to the span of the request
   * that created the task (`request`; undefined for a task recovered by another process).
   */
  task<T>(request: InboundRequest | undefined, def: ComponentDefinition, taskId: string, run: () => Promise<T>): Promise<T>;
}
