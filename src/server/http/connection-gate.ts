import type { Server as NodeServer } from "node:http";
import type { Socket } from "node:net";
import { errorResponse } from "../checks/error-response";

/**
 * How many connections may be in the middle of their refusal at once, per connection of the cap: a
 * burst a few times the cap (clients retrying together) is still answered, a flood is bounded.
 */
const REFUSING_PER_CONNECTION = 4;

/** What a refused client is told to wait before it tries again, in seconds. */
export const RETRY_AFTER_SECONDS = 1;

/** Why a connection is refused before any request on it is read. */
export type RefusalReason = "over-cap" | "closing";

const MESSAGES: Record<RefusalReason, string> = {
  "over-cap": "Service unavailable: the server has reached its connection limit (maxConnections); retry after Retry-After seconds",
  closing:
    "Service unavailable: the server is shutting down; retry the request after Retry-After seconds, on another instance if there is one",
};

/** The raw HTTP answer of a refused connection, made once per reason. */
const ANSWERS: Record<RefusalReason, Buffer> = {
  "over-cap": rawAnswer(MESSAGES["over-cap"]),
  closing: rawAnswer(MESSAGES.closing),
};

function rawAnswer(message: string): Buffer {
  const body = JSON.stringify(errorResponse({ code: -32000, message }));
  return Buffer.from(
    "HTTP/1.1 503 Service Unavailable\r\n" +
      `Retry-After: ${RETRY_AFTER_SECONDS}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The message a request refused for `reason` carries (the listener's own 503s use the same words). */
export function refusalMessage(reason: RefusalReason): string {
  return MESSAGES[reason];
}

/**
 * Stands in front of node:http's own connection handling: a connection under `maxConnections`
 * goes on to the HTTP parser; one over it, or one arriving while the listener closes, is answered
 * `503` with `Retry-After` and `Connection: close` at once and closed (Node's own
 * `server.maxConnections` resets it with no answer at all). The answer is written, the write side
 * ended, and what the client sends is read and dropped until it closes its side (or for at most
 * `graceMs`): closing while the client still writes would reset the connection, and a reset can destroy
 * the answer before the client reads it. Connections being refused are bounded too: past
 * `REFUSING_PER_CONNECTION` times `maxConnections` of them at once (a flood), a new one is cut
 * without an answer.
 */
export class ConnectionGate {
  private open = 0;
  private readonly refusing = new Set<Socket>();
  private closing = false;
  /** Connections refused with an answer, per reason, and cut without one (the flood bound). */
  readonly counts = { "over-cap": 0, closing: 0, cut: 0 };

  constructor(
    server: NodeServer,
    private readonly maxConnections: number,
    private readonly graceMs: number,
  ) {
    // http.Server handles a connection with one listener of its own, added when it is made.
    const parse = server.listeners("connection") as ((socket: Socket) => void)[];
    if (parse.length !== 1) throw new Error(`ConnectionGate: expected node:http's one connection listener, found ${parse.length}`);
    const [accept] = parse;
    server.removeListener("connection", accept!);
    server.on("connection", (socket: Socket) => {
      if (this.closing) return this.refuse(socket, "closing");
      if (this.open >= this.maxConnections) return this.refuse(socket, "over-cap");
      this.open++;
      socket.once("close", () => this.open--);
      accept!.call(server, socket);
    });
  }

  /** From now on every new connection is refused as "closing". */
  close(): void {
    this.closing = true;
  }

  /** Ends the connections still being refused (the listener is going away). */
  destroyAll(): void {
    for (const socket of this.refusing) socket.destroy();
    this.refusing.clear();
  }

  private refuse(socket: Socket, reason: RefusalReason): void {
    if (this.refusing.size >= REFUSING_PER_CONNECTION * this.maxConnections) {
      this.counts.cut++;
      socket.destroy();
      return;
    }
    this.counts[reason]++;
    this.refusing.add(socket);
    const done = () => {
      clearTimeout(timer);
      this.refusing.delete(socket);
      socket.destroy();
    };
    const timer = setTimeout(done, this.graceMs);
    timer.unref();
    // Once the answer is out and the client closed its side, the socket closes by itself.
    socket.on("error", done).on("close", done);
    socket.resume();
    socket.end(ANSWERS[reason]);
  }
}
