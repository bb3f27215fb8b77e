// HTTP/1.1 over a bare TCP socket, for what fetch cannot do or cannot see: a Host header of any
// shape, a body larger than declared or never finished, and exactly how the connection ends
// (a clean close, or a reset and EPIPE that would have destroyed the answer).
import { connect, type Socket } from "node:net";

export interface SocketOutcome {
  /** Everything the server sent, as text. */
  readonly received: string;
  /** The status code of the first response, if one arrived. */
  readonly status: number | undefined;
  /** The JSON body of the first response, if it had one. */
  readonly body: Record<string, unknown> | undefined;
  /** The socket error code (ECONNRESET, EPIPE, ...), if the connection did not end cleanly. */
  readonly error: string | undefined;
}

export interface SocketScript {
  /** The request line and headers, without the blank line that ends them. */
  readonly head: string;
  /** Body bytes to send after the head, in order, each written once the previous one drained. */
  readonly body?: Iterable<Buffer>;
  /** Half-close the socket after the body (default true); false leaves the request unfinished. */
  readonly end?: boolean;
}

/** Sends one scripted request on a fresh connection and resolves when the connection closes. */
export function exchange(port: number, script: SocketScript): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => resolve(outcome(Buffer.concat(chunks).toString("utf8"), error)));
    socket.on("connect", () => {
      socket.write(`${script.head}\r\n\r\n`);
      const body = (script.body ?? [])[Symbol.iterator]();
      const pump = () => {
        for (let next = body.next(); !next.done; next = body.next()) {
          if (socket.destroyed) return;
          if (!socket.write(next.value)) return void socket.once("drain", pump);
        }
        if (script.end !== false) socket.end();
      };
      pump();
    });
  });
}

/** `count` chunks of `size` bytes of spaces. */
export function* filler(count: number, size = 64 * 1024): Generator<Buffer> {
  const chunk = Buffer.alloc(size, 0x20);
  for (let i = 0; i < count; i++) yield chunk;
}

function outcome(received: string, error: string | undefined): SocketOutcome {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  const split = received.indexOf("\r\n\r\n");
  const rest = split < 0 ? "" : received.slice(split + 4);
  const length = /\r\ncontent-length: (\d+)/i.exec(received.slice(0, split))?.[1];
  let body: Record<string, unknown> | undefined;
  if (length !== undefined && Number(length) > 0) {
    try {
      body = JSON.parse(rest.slice(0, Number(length))) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
  }
  return { received, status: status === undefined ? undefined : Number(status), body, error };
}

/** One keep-alive connection that sends requests one after another and reads each answer whole. */
export interface KeptConnection {
  /** Sends a request (head and body) and resolves with its answer, or with what arrived before the connection closed. */
  send(head: string, body?: string): Promise<SocketOutcome>;
  /** Resolves once the server closed the connection. */
  readonly closed: Promise<void>;
  destroy(): void;
}

/** Opens a connection and resolves once it is connected. */
export function keepAlive(port: number): Promise<KeptConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let buffer = "";
    let error: string | undefined;
    let waiting: ((outcome: SocketOutcome) => void) | undefined;
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    const deliver = (whole: boolean) => {
      if (waiting === undefined) return;
      const split = buffer.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(buffer.slice(0, split))?.[1] ?? 0);
      if (whole && (split < 0 || buffer.length < split + 4 + length)) return;
      const text = whole ? buffer.slice(0, split + 4 + length) : buffer;
      buffer = buffer.slice(text.length);
      const done = waiting;
      waiting = undefined;
      done(outcome(text, error));
    };
    socket.on("data", (chunk: Buffer) => ((buffer += chunk.toString("utf8")), deliver(true)));
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => deliver(false));
    socket.once("error", reject);
    socket.once("connect", () =>
      resolve({
        send: (head, body = "") =>
          new Promise<SocketOutcome>((answer) => {
            waiting = answer;
            socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
          }),
        closed,
        destroy: () => socket.destroy(),
      }),
    );
  });
}
