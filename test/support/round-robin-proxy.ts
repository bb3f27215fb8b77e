// A strict round-robin load balancer for the two-instance tests: a node:http proxy on 127.0.0.1
// port 0 that sends each request to the next backend in turn, whatever it carries (no sticky
// sessions, no look at Mcp-Session-Id), and streams the answer back (SSE included); a backend
// that refuses the connection (stopped) is skipped for that request, as a balancer does. It records
// where each request went and what its JSON-RPC body was, so a test can say which instance
// served what.
import { type IncomingMessage, type Server, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export interface Routed {
  /** Index of the backend that got the request. */
  readonly backend: number;
  readonly httpMethod: string;
  /** The JSON-RPC method, "response" for a client's answer (result or error), or undefined for no JSON body. */
  readonly rpc: string | undefined;
  readonly id: unknown;
}

export interface RoundRobinProxy {
  readonly url: string;
  readonly routed: readonly Routed[];
  /** The backend the next request goes to. */
  next(): number;
  close(): Promise<void>;
}

function summary(body: Buffer): Pick<Routed, "rpc" | "id"> {
  try {
    const message = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    if (typeof message.method === "string") return { rpc: message.method, id: message.id };
    if ("result" in message || "error" in message) return { rpc: "response", id: message.id };
  } catch {
    // Not JSON: a GET, a DELETE, or junk.
  }
  return { rpc: undefined, id: undefined };
}

/** Starts a proxy in front of `backends` (base URLs such as http://127.0.0.1:1234); the path is kept. */
export async function roundRobinProxy(backends: readonly string[]): Promise<RoundRobinProxy> {
  let turn = 0;
  const routed: Routed[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const backend = turn;
    turn = (turn + 1) % backends.length;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      routed.push({ backend, httpMethod: req.method ?? "", ...summary(body) });
      // As a balancer does (nginx's proxy_next_upstream error): a connection refused, which sent
      // nothing, is tried on the next backend; any other failure is a 502.
      const send = (target: number, tries: number): void => {
        const url = new URL(req.url ?? "/", backends[target]);
        const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // The backend died mid-answer (killed): the client's connection breaks too, as behind a balancer.
          answer.on("aborted", () => res.destroy()).on("error", () => res.destroy());
        });
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && tries > 1 && !res.headersSent) return send((target + 1) % backends.length, tries - 1);
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        // The client went away (an SSE stream closed): so does the upstream request.
        res.on("close", () => upstream.destroy());
        upstream.end(body);
      };
      send(backend, backends.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routed,
    next: () => turn,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
