import type { ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { ErrorCode } from "../../protocol/errors";
import { errorResponse } from "../checks/error-response";
import type { HttpAnswer } from "./http-answerer";
import { send } from "./http-body";
import type { Flight } from "./http-drain";
import { writeLaneBytes, type LaneWriteQueue } from "./lane-write-queue";

/**
 * Writes the answer on node:http: a refusal, the lane's bytes, or the SDK's response (JSON in one
 * write, or a stream). With a `queue`, the lane's bytes are written with the other answers of this
 * turn of the event loop (see `LaneWriteQueue`); without, at once.
 */
export function writeAnswer(
  res: ServerResponse,
  flight: Flight,
  answer: HttpAnswer,
  onerror: (error: Error) => void,
  queue?: LaneWriteQueue,
): void {
  if (answer.kind === "refused")
    return flight.stopped
      ? undefined
      : send(res, answer.rejection.status, errorResponse(answer.rejection, answer.id), answer.rejection.headers);
  if (answer.kind === "lane") {
    if (res.destroyed || flight.stopped) return;
    if (queue === undefined) writeLaneBytes(res, answer.bytes);
    else queue.push(res, flight, answer.bytes, onerror);
    return;
  }
  void writeResponse(res, flight, answer.response).catch((error: unknown) => {
    onerror(error instanceof Error ? error : new Error(String(error)));
    if (!res.headersSent && !res.destroyed) jsonError(res, 500, ErrorCode.InternalError, "Internal server error");
    else res.destroy();
  });
}

async function writeResponse(res: ServerResponse, flight: Flight, response: Response): Promise<void> {
  if (flight.stopped) return void response.body?.cancel().catch(() => undefined);
  const outHeaders = Object.fromEntries(response.headers);
  if (!response.body) return void res.writeHead(response.status, outHeaders).end();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    // A plain JSON answer goes out in one write with its length (no chunked stream).
    const payload = Buffer.from(await response.arrayBuffer());
    if (flight.stopped || res.destroyed) return;
    res.writeHead(response.status, { ...outHeaders, "content-length": String(payload.length) }).end(payload);
    return;
  }
  res.writeHead(response.status, outHeaders);
  res.flushHeaders();
  // pipeline, not pipe: a client that goes away cancels the web stream, so its producer (the SDK's
  // transport) lets go of it (a 2025 session's stream is then free to be resumed with Last-Event-ID).
  pipeline(Readable.fromWeb(response.body as never), res, () => undefined);
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  send(res, status, errorResponse({ code, message }));
}
