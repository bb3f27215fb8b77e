// Pins what a server on stdio (a real child process) answers to lines that are not good requests,
// and that it keeps serving after each one:
// - every error answer carries the line's "id" whenever it can be read; else it has none (MCP
//   2026-07-28 makes the id of an error response optional and forbids null);
// - a line that is not JSON: -32700, no id;
// - JSON that is not a valid JSON-RPC message: -32600, with the id whenever the line has one MCP
//   allows ({"jsonrpc":"1.0","id":5,...}, a progressToken that is an object, a method that is not a
//   string: {"jsonrpc":"2.0","id":77,"method":5}, exactly as written on the wire), none otherwise
//   ({"foo":1}, a batch array, an id with a fraction, which MCP does not allow);
// - a line over a structural limit: -32602 naming the limit, with its id;
// - a line over maxBodyBytes, and over the SDK's own 10 MiB read buffer (which closes the
//   connection and exits 0): -32600 "Request too large" (with the id the line's start names),
//   and the process neither exits nor stalls: the next request is answered;
// - blank lines are ignored;
// - an in-process connection (the SDK's in-memory transport) refuses an invalid message with
//   -32600 too, instead of dropping it silently.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { fixtureCommand } from "../support/fixture-server";
import { envelope } from "../support/raw-session";
import { createFeatureApp } from "./fixtures/feature-app";
import { DEFAULT_REQUEST_LIMITS } from "../../src/index";

const MAX_BODY = DEFAULT_REQUEST_LIMITS.maxBodyBytes;

const LIST = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: envelope() } });

describe("stdio lines", () => {
  let child: ChildProcessWithoutNullStreams;
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];

  beforeAll(() => {
    const { command, args, env } = fixtureCommand("feature");
    child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        const waiter = waiting.shift();
        if (waiter) waiter(line);
        else lines.push(line);
      }
    });
  });

  afterAll(async () => {
    child.stdin.end();
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  });

  function nextLine(): Promise<string> {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => waiting.push(resolve));
  }

  async function next(): Promise<Record<string, unknown>> {
    return JSON.parse(await nextLine());
  }

  async function send(line: string | Buffer): Promise<Record<string, unknown>> {
    child.stdin.write(line);
    child.stdin.write("\n");
    return next();
  }

  it("answers a line that is not JSON with -32700 and keeps serving", async () => {
    expect(await send("hello world")).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: the line is not valid JSON" },
    });
    expect(await send(LIST(1))).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });

  it.each([
    ['{"jsonrpc":"1.0","id":5,"method":"tools/list"}', 5],
    [JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: { ...envelope(), progressToken: {} } } }), 9],
    ['{"foo":1}', undefined],
    [JSON.stringify({ jsonrpc: "2.0", id: 1.5, method: "tools/list", params: { _meta: envelope() } }), undefined],
    [`[${LIST(2)}]`, undefined],
  ])("answers %s with -32600 (id %j)", async (line, id) => {
    const answer = await send(line);
    expect(answer).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect(answer.id).toEqual(id);
    expect(await send(LIST(3))).toMatchObject({ id: 3, result: {} });
  });

  it("answers a method that is not a string with the line's id, exactly", async () => {
    child.stdin.write('{"jsonrpc":"2.0","id":77,"method":5}\n');
    expect(await nextLine()).toBe(
      '{"jsonrpc":"2.0","id":77,"error":{"code":-32600,"message":"Invalid Request: not a valid JSON-RPC 2.0 message"}}',
    );
    child.stdin.write('{"jsonrpc":"2.0","id":"x","result":5,"method":null}\n');
    expect(await nextLine()).toBe(
      '{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: not a valid JSON-RPC 2.0 message"}}',
    );
    expect(await send(LIST(12))).toMatchObject({ id: 12, result: {} });
  });

  it("answers a line over a structural limit with -32602 and its id", async () => {
    const line = `{"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"_meta":${JSON.stringify(envelope())},"x":${"[".repeat(100)}${"]".repeat(100)}}}`;
    expect(await send(line)).toEqual({
      jsonrpc: "2.0",
      id: 11,
      error: { code: -32602, message: "Request nested deeper than 64 levels (limit maxDepth)", data: { limit: "maxDepth", maximum: 64 } },
    });
  });

  it("answers a line over maxBodyBytes with -32600, ignores blank lines, and keeps serving", async () => {
    const answer = await send(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    expect(answer).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `Request too large: the body exceeds ${MAX_BODY} bytes (limit maxBodyBytes)`,
        data: { limit: "maxBodyBytes", maximum: MAX_BODY },
      },
    });
    child.stdin.write("\n\r\n   \n");
    expect(await send(LIST(4))).toMatchObject({ id: 4, result: {} });
    // A request too long to keep is answered with the id its start names.
    const long = JSON.stringify({
      jsonrpc: "2.0",
      id: "big",
      method: "tools/list",
      params: { _meta: envelope(), pad: "p".repeat(2 * MAX_BODY) },
    });
    expect(await send(long)).toMatchObject({ id: "big", error: { code: -32600 } });
    expect(child.exitCode).toBeNull();
  });
});

describe("an in-process connection", () => {
  it("answers an invalid message with -32600 instead of dropping it", async () => {
    const app = createFeatureApp();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    app.serve(serverSide);
    const received: JSONRPCMessage[] = [];
    const answered = new Promise<void>((resolve) => {
      clientSide.onmessage = (message) => {
        received.push(message);
        resolve();
      };
    });
    await clientSide.start();
    await clientSide.send({ jsonrpc: "2.0", id: 4, method: "tools/list", params: 5 } as unknown as JSONRPCMessage);
    await answered;
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 4, error: { code: -32600, message: "Invalid Request: not a valid JSON-RPC 2.0 message" } },
    ]);
    await app.close();
  });
});
