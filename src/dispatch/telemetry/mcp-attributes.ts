import { createHash } from "node:crypto";
import { ErrorCode, isMcpError } from "../../protocol/errors";
import type { InboundRequest } from "../../protocol/inbound-request";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import { INVALID_STATE_MESSAGE } from "../../state/state-options";

/** Attribute values as OpenTelemetry takes them. */
export type Attributes = Record<string, string | number | boolean | string[]>;

/** Histogram buckets the MCP conventions advise for `mcp.*.operation.duration`, in seconds. */
export const DURATION_BUCKETS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The attributes the duration histogram keeps of a span's (the conventions' list: low cardinality only). */
export const METRIC_ATTRIBUTES: readonly string[] = [
  "mcp.method.name",
  "error.type",
  "gen_ai.tool.name",
  "gen_ai.prompt.name",
  "gen_ai.operation.name",
  "rpc.response.status_code",
  "mcp.protocol.version",
  "network.transport",
  "network.protocol.name",
];

/** `network.transport` per transport (the conventions: tcp for HTTP, pipe for stdio). */
const NETWORK_TRANSPORT = { http: "tcp", stdio: "pipe" } as const;

/** What the conventions ask of a request before it runs, and the span name `{mcp.method.name} {target}`. */
export function requestAttributes(request: InboundRequest, recordContent: boolean): { name: string; attributes: Attributes } {
  const { method, params } = request;
  const attributes: Attributes = { "mcp.method.name": method };
  let target: string | undefined;
  const name = params.name;
  if (method === "tools/call" && typeof name === "string") {
    target = name;
    attributes["gen_ai.tool.name"] = name;
    attributes["gen_ai.operation.name"] = "execute_tool";
    if (recordContent && params.arguments !== undefined) attributes["gen_ai.tool.call.arguments"] = JSON.stringify(params.arguments);
  } else if (method === "prompts/get" && typeof name === "string") {
    target = name;
    attributes["gen_ai.prompt.name"] = name;
  } else if (typeof params.uri === "string" && method.startsWith("resources/")) {
    // Never in the span name: a URI is high-cardinality.
    attributes["mcp.resource.uri"] = params.uri;
  }
  if (request.requestId !== undefined) attributes["jsonrpc.request.id"] = String(request.requestId);
  if (request.protocolVersion !== undefined) attributes["mcp.protocol.version"] = request.protocolVersion;
  // A digest, not the id: a 2025 session id is what a client presents to act in its session.
  if (request.sessionId !== undefined) attributes["mcp.session.id"] = sessionDigest(request.sessionId);
  if (request.transportKind !== undefined) {
    attributes["network.transport"] = NETWORK_TRANSPORT[request.transportKind];
    if (request.transportKind === "http") attributes["network.protocol.name"] = "http";
  }
  const answered = isPlainObject(request.inputResponses) ? Object.keys(request.inputResponses) : [];
  if (answered.length > 0) {
    attributes["roundtrip_mcp.answered"] = answered;
    if (recordContent) attributes["roundtrip_mcp.answers"] = JSON.stringify(request.inputResponses);
  }
  return { name: target === undefined ? method : `${method} ${target}`, attributes };
}

/** What a result adds: its `resultType`, the questions an `input_required` result asks, a task's id, `tool_error`. */
export function resultAttributes(request: InboundRequest, result: JsonObject, attributes: Attributes, recordContent: boolean): void {
  const resultType = typeof result.resultType === "string" ? result.resultType : "complete";
  attributes["roundtrip_mcp.result_type"] = resultType;
  if (resultType === "input_required" && isPlainObject(result.inputRequests)) {
    attributes["roundtrip_mcp.questions"] = Object.keys(result.inputRequests);
  } else if (resultType === "task" && typeof result.taskId === "string") {
    attributes["roundtrip_mcp.task.id"] = result.taskId;
  }
  if (request.method !== "tools/call") return;
  if (result.isError === true) attributes["error.type"] = "tool_error";
  else if (recordContent && resultType === "complete") attributes["gen_ai.tool.call.result"] = JSON.stringify(result);
}

/** What a JSON-RPC error adds; returns the status message (the error's message). */
export function errorAttributes(request: InboundRequest, error: unknown, attributes: Attributes): string {
  // Anything but an McpError goes out as -32603 (the SDK's rule for a thrown error).
  const code = isMcpError(error) ? error.code : ErrorCode.InternalError;
  attributes["error.type"] = String(code);
  attributes["rpc.response.status_code"] = String(code);
  const message = isMcpError(error) ? error.message : "Internal error";
  // Only opening carried state fails with this message: the request's state was refused.
  if (code === ErrorCode.InvalidParams && message === INVALID_STATE_MESSAGE && typeof request.requestState === "string")
    attributes["roundtrip_mcp.state"] = "refused";
  return message;
}

/** The subset of a span's attributes the duration histogram records. */
export function metricAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const key of METRIC_ATTRIBUTES) if (attributes[key] !== undefined) kept[key] = attributes[key];
  return kept;
}

/** The session as traces name it: the first 22 base64url characters of the SHA-256 of its id. */
export function sessionDigest(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 22);
}
