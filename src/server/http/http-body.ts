import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../checks/error-response";
import type { Rejection } from "../checks/inbound-checks";

/** What a refused body may still send before its connection is cut instead of closed cleanly. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/** Writes one JSON answer with its length. */
export function send(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const payload = JSON.stringify(body);
  res
    .writeHead(status, { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) })
    .end(payload);
}

export type BodyRead = { kind: "body"; text: string } | { kind: "too-large" } | { kind: "aborted" };

/**
 * Reads a body up to `max` bytes; a declared Content-Length over it is refused before reading.
 *
 * A body that came with its headers (nearly every MCP request: a small JSON message in one write)
 * is taken whole, in one `read()` of what the parser buffered, once a microtask has let the parser
 * finish with the bytes it was handed: Node emits the request from inside that parse, and has
 * buffered the rest of the same bytes before a promise settles. Only a body still arriving (or one
 * without a Content-Length) is streamed, with listeners for its chunks, its end and its failure;
 * that costs Node a flowing stream, a tick for its data and another for its end, which a body
 * already here does not need.
 */
export async function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (declared > max) return { kind: "too-large" };
  await Promise.resolve();
  // All the declared bytes are buffered, and nobody else reads them (no data listener, not resumed).
  if (req.readableLength === declared && req.readableFlowing === null && req.readableEncoding === null && !req.destroyed) {
    return wholeBody(req);
  }
  return streamedBody(req, max);
}

/** A body whose declared bytes (at most the limit) the parser has buffered: all of them, at once. */
function wholeBody(req: IncomingMessage): BodyRead {
  const held = req.read() as Buffer | null;
  return { kind: "body", text: held === null ? "" : held.toString("utf8") };
}

/** A body still arriving: its chunks as they come, up to `max` bytes. */
function streamedBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // The listeners stay (they die with the request): a later event finds the read done, and an
    // error after it still has a listener. Only the first outcome counts.
    const finish = (outcome: BodyRead) => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      size += bytes.length;
      if (size > max) finish({ kind: "too-large" });
      else if (!done) chunks.push(bytes);
    };
    const onEnd = () => finish({ kind: "body", text: Buffer.concat(chunks, size).toString("utf8") });
    const onAbort = () => finish({ kind: "aborted" });
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onAbort);
  });
}

/**
 * Answers a refusal (413, 503) now, with `Connection: close`, and closes the connection in two steps once the
 * answer is out: the write side at once (Node's "destroy soon" becomes a half-close), the whole
 * connection when the client has sent what it declared. Destroying it while the client still
 * writes would reset it, and a reset can destroy the answer before the client reads it. A client
 * that sends more than DRAIN_LIMIT_BYTES, or for longer than requestTimeoutMs, is cut off.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, rejection: Rejection, headers: Record<string, string> = {}): void {
  const socket = req.socket;
  socket.destroySoon = () => socket.end();
  send(res, rejection.status, errorResponse(rejection), { ...headers, connection: "close" });
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) socket.destroy();
  });
  req.on("end", () => socket.destroy());
  req.on("error", () => socket.destroy());
  req.resume();
}

/**
 * Refuses a request only once it is read whole (503 while closing or over the connection cap),
 * with `Connection: close`: an answer written before the request was read can reach a proxy still
 * sending it, which may then hand its client two answers run together. A body over `max` is
 * refused 413 as it is declared; one a framework's parser already read is not waited for.
 */
export async function refuseAfterReading(
  req: IncomingMessage,
  res: ServerResponse,
  limit: { readonly max: number; readonly tooLarge: () => Rejection },
  rejection: Rejection,
  headers: Record<string, string>,
): Promise<void> {
  if (!req.complete && !req.readableEnded) {
    const read = await readBody(req, limit.max);
    if (read.kind === "aborted") return;
    if (read.kind === "too-large") return refuseBody(req, res, limit.tooLarge());
  }
  send(res, rejection.status, errorResponse(rejection), { ...headers, connection: "close" });
}
