// One JSON-RPC request of a benchmark over keep-alive HTTP, with the 2026-07-28 envelope and the
// headers the transport checks; resolves with the response body's text.
import http from "node:http";

export const BENCH_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** POSTs `method` with `params` (the envelope added); `name` is sent as Mcp-Name. */
export function postRpc(agent: http.Agent, url: string, method: string, params: Record<string, unknown>, name?: string): Promise<string> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: BENCH_META, ...params } });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(name !== undefined && { "mcp-name": name }),
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
