// Raw JSON-RPC over HTTP: exact requests and exact wire responses, for what the framework
// promises to the byte (status codes, error bodies, resultType, cache hints).
export const PROTOCOL = "2026-07-28";

export function meta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { "io.modelcontextprotocol/protocolVersion": PROTOCOL, "io.modelcontextprotocol/clientCapabilities": capabilities, ...extra };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** The JSON body, or the final message of an SSE stream. */
  body: Record<string, unknown> | undefined;
  /** Every message of an SSE stream (one element for a JSON body). */
  messages: Record<string, unknown>[];
}

let nextId = 1;

/** POSTs one JSON-RPC request with the standard headers (overridable). */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { headers?: Record<string, string | undefined>; id?: number | string } = {},
): Promise<RawResponse> {
  const id = options.id ?? nextId++;
  const mirrored = method.startsWith("tasks/") ? params.taskId : (params.name ?? params.uri);
  const name = typeof mirrored === "string" ? mirrored : undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL,
    "mcp-method": method,
    ...(name !== undefined && { "mcp-name": name }),
  };
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return post(url, { jsonrpc: "2.0", id, method, params }, headers);
}

export async function post(url: string, body: unknown, headers: Record<string, string>): Promise<RawResponse> {
  const response = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  let messages: Record<string, unknown>[] = [];
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    messages = text
      .split("\n")
      // A 2025 session's priming event carries an id and empty data: no message.
      .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
      .map((line) => JSON.parse(line.slice(5)));
  } else if (text.length > 0) {
    messages = [JSON.parse(text)];
  }
  return { status: response.status, headers: response.headers, body: messages[messages.length - 1], messages };
}
