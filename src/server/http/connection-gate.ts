import type { Server as NodeServer } from "node:http";
import type { Socket } from "node:net";

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

/** The message a request refused for `reason` carries (the listener's own 503s use the same words). */
export function refusalMessage(reason: RefusalReason): string {
  return MESSAGES[reason];
}

/**
 * Stands in front of node:http's own connection handling: a connection under `maxConnections`
 * goes on to the HTTP parser as usual; one over it goes to the parser marked refused, and its
 * request is answered `503` with
 * `Retry-After` and `Connection: close` once it is read (`refusal`), never before: an answer
 * written before the request was read can reach a proxy still sending it, which may then hand its
 * client two answers run together (Node's own `server.maxConnections` resets such a connection
 * with no answer at all). Connections being refused are bounded too: past
 * `REFUSING_PER_CONNECTION` times `maxConnections` of them at once (a flood), a new one is cut
 * without an answer.
 */
export class ConnectionGate {
  private open = 0;
  private readonly refusing = new Set<Socket>();
  /** Connections refused with an answer, and cut without one (the flood bound). */
  readonly counts = { "over-cap": 0, cut: 0 };

  constructor(
    private readonly server: NodeServer,
    private readonly maxConnections: number,
  ) {
    // http.Server handles a connection with one listener of its own, added when it is made.
    const parse = server.listeners("connection") as ((socket: Socket) => void)[];
    if (parse.length !== 1) throw new Error(`ConnectionGate: expected node:http's one connection listener, found ${parse.length}`);
    const [accept] = parse;
    server.removeListener("connection", accept!);
    server.on("connection", (socket: Socket) => {
      if (this.open >= this.maxConnections) return this.refuse(socket, accept!);
      this.open++;
      socket.once("close", () => this.open--);
      accept!.call(server, socket);
    });
  }

  /** Whether the requests on this connection are refused (it came over the cap). */
  refused(socket: Socket): boolean {
    // Asked for every request: no lookup at all while nothing is refused.
    return this.refusing.size > 0 && this.refusing.has(socket);
  }

  private refuse(socket: Socket, accept: (socket: Socket) => void): void {
    if (this.refusing.size >= REFUSING_PER_CONNECTION * this.maxConnections) {
      this.counts.cut++;
      socket.destroy();
      return;
    }
    this.counts["over-cap"]++;
    this.refusing.add(socket);
    socket.once("close", () => this.refusing.delete(socket));
    accept.call(this.server, socket);
  }
}
