// Benchmark reference: a bare node:http server that answers the benchmark's exchanges with fixed
// JSON, the bytes the app sent for the same requests (recorded by the benchmark and handed over in
// BENCH_EXCHANGES, see recorded-exchange.ts). It does no MCP work, so its calls per second are what
// this machine's loopback HTTP allows for those exchanges (the ceiling). It picks the exchange by
// the `Mcp-Name` header; for a call of two rounds it reads the body and answers the first round's
// response, or the completion when the body carries `requestState` (a retry). A one-round call's
// body is read and dropped unseen.
// Prints its URL on one line when ready, then answers memory probes on stdin (memory-probe.ts: the
// memory scenario prints its RSS beside the app's); exits on SIGTERM, SIGINT or when stdin ends.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exitWhenAsked } from "./exit-when-asked";
import { answerMemoryProbes } from "./memory-probe";
import { EXCHANGES_ENV, isRetryBody, type RecordedExchange, type RecordedResponse } from "./recorded-exchange";

interface Encoded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const encode = (response: RecordedResponse): Encoded => {
  const body = Buffer.from(response.body);
  return { status: response.status, headers: { "content-type": response.contentType, "content-length": String(body.length) }, body };
};

const recorded = JSON.parse(process.env[EXCHANGES_ENV] ?? "[]") as RecordedExchange[];
if (recorded.length === 0) throw new Error(`${EXCHANGES_ENV} holds no recorded exchanges`);
const exchanges = new Map(recorded.map((e) => [e.name, { first: e.first && encode(e.first), final: encode(e.final) }]));

const send = (res: ServerResponse, answer: Encoded) => res.writeHead(answer.status, answer.headers).end(answer.body);

const server = createServer((req, res) => {
  const name = req.headers["mcp-name"];
  const exchange = req.method === "POST" && typeof name === "string" ? exchanges.get(name) : undefined;
  if (!exchange) {
    req.resume();
    res.writeHead(404).end();
    return;
  }
  const first = exchange.first;
  if (!first) {
    // Consume the request body as any real server must, then answer.
    req.on("data", () => {});
    req.on("end", () => send(res, exchange.final));
    return;
  }
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (body += chunk));
  req.on("end", () => send(res, isRetryBody(body) ? exchange.final : first));
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
  answerMemoryProbes();
});

exitWhenAsked(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
