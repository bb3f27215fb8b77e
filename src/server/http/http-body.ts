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

/** Reads a body up to `max` bytes; a declared Content-Length over it is refused before reading. */
export function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  if (Number(req.headers["content-length"]) > max) return Promise.resolve({ kind: "too-large" });
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
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) finish({ kind: "too-large" });
      else if (!done) chunks.push(chunk);
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
