// readBody over a real node:http server on 127.0.0.1: a body that came with its headers is taken
// whole from what the parser buffered (the request is never switched to flowing mode); one still
// arriving, or one without a Content-Length, is streamed; both give the same text and the same
// limits. The raw requests are written on a net socket so that how the bytes arrive is the test's.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { readBody, type BodyRead } from "../../../../src/server/http/http-body";

interface Seen {
  readonly read: BodyRead;
  /** `readableFlowing` after the read: null when nothing was streamed. */
  readonly flowing: boolean | null;
}

const MAX = 64;

let server: Server;
let port: number;
let seen: (value: Seen) => void;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    void readBody(req, MAX).then((read) => {
      seen({ read, flowing: req.readableFlowing });
      res.writeHead(200, { "content-length": "2", connection: "close" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Writes `parts` one after another, `gapMs` apart, on a new connection; resolves with what readBody saw. */
function send(parts: readonly (string | Buffer)[], gapMs = 0): Promise<Seen> {
  return new Promise((resolve, reject) => {
    seen = resolve;
    const socket = connect(port, "127.0.0.1");
    socket.on("error", reject);
    socket.resume();
    socket.on("connect", () => {
      parts.forEach((part, i) => setTimeout(() => socket.write(part), i * gapMs));
    });
  });
}

const head = (headers: Record<string, string | number>) =>
  `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;

describe("readBody", () => {
  const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

  it("takes a body that came with its headers whole, without a flowing stream", async () => {
    const { read, flowing } = await send([head({ "content-length": Buffer.byteLength(body) }) + body]);
    expect(read).toEqual({ kind: "body", text: body });
    expect(flowing).toBeNull();
  });

  it("reads an empty body as the empty text", async () => {
    const { read, flowing } = await send([head({ "content-length": 0 })]);
    expect(read).toEqual({ kind: "body", text: "" });
    expect(flowing).toBeNull();
  });

  it("streams a body still arriving, and decodes a character split between its chunks", async () => {
    const text = '{"name":"café ✓"}';
    const bytes = Buffer.from(text, "utf8");
    const split = bytes.indexOf(0xa9); // the second byte of "é": the first chunk ends inside it
    const { read, flowing } = await send(
      [Buffer.concat([Buffer.from(head({ "content-length": bytes.length })), bytes.subarray(0, split)]), bytes.subarray(split)],
      30,
    );
    expect(read).toEqual({ kind: "body", text });
    expect(flowing).toBe(true);
  });

  it("streams a chunked body (no Content-Length)", async () => {
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const { read, flowing } = await send([head({ "transfer-encoding": "chunked" }) + chunked]);
    expect(read).toEqual({ kind: "body", text: body });
    expect(flowing).toBe(true);
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const { read, flowing } = await send([head({ "content-length": MAX + 1 })]);
    expect(read).toEqual({ kind: "too-large" });
    expect(flowing).toBeNull();
  });

  it("refuses a chunked body once it passes the limit", async () => {
    const long = "x".repeat(MAX + 1);
    const chunked = `${long.length.toString(16)}\r\n${long}\r\n0\r\n\r\n`;
    const { read } = await send([head({ "transfer-encoding": "chunked" }) + chunked]);
    expect(read).toEqual({ kind: "too-large" });
  });

  it("tells a client that went away mid-body", async () => {
    const result = new Promise<Seen>((resolve) => (seen = resolve));
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head({ "content-length": 40 }) + '{"partial":');
      setTimeout(() => socket.destroy(), 30);
    });
    socket.on("error", () => undefined);
    expect((await result).read).toEqual({ kind: "aborted" });
  });
});
