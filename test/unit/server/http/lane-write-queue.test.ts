// Pins how the built-in listener writes the lane's answers (LaneWriteQueue):
// - answers queued in one turn of the event loop are written after it (in the check phase), in the
//   order they were queued, and nothing is written before
// - an answer whose client went away (response destroyed) or that the drain ended (flight stopped)
//   before the flush is not written; the others still are
// - what writing an answer throws goes to that answer's onerror and ends its response; the flush
//   goes on with the next answer and nothing escapes into the event loop
// - a kept head and its tail leave in one socket write (the response is corked before the head)
// - over real HTTP on 127.0.0.1, concurrent requests on several keep-alive connections each get
//   their own answer
import type { ServerResponse } from "node:http";
import { IsInt } from "class-validator";
import { Arg, McpApp, Tool } from "../../../../src/index";
import type { LaneBytes } from "../../../../src/server/lane/fast-lane";
import type { Flight } from "../../../../src/server/http/http-drain";
import { LaneWriteQueue } from "../../../../src/server/http/lane-write-queue";

/** A response that records what is done to it. */
function fakeResponse(log: string[], name: string, options: { throwOnHead?: boolean } = {}) {
  const res = {
    destroyed: false,
    writeHead(status: number, headers: Record<string, string>) {
      if (options.throwOnHead) throw new Error(`${name}: head refused`);
      log.push(`${name} head ${status} ${headers["content-length"]}`);
      return res;
    },
    cork() {
      log.push(`${name} cork`);
    },
    write(chunk: Buffer | string) {
      log.push(`${name} write ${chunk.toString()}`);
      return true;
    },
    end(chunk: string) {
      log.push(`${name} end ${chunk}`);
      return res;
    },
    destroy() {
      res.destroyed = true;
      log.push(`${name} destroy`);
      return res;
    },
  };
  return res;
}

const asResponse = (res: ReturnType<typeof fakeResponse>) => res as unknown as ServerResponse;
const flight = (): Flight => ({ listen: false, stopped: false });
const bytes = (text: string): LaneBytes => ({ kind: "bytes", status: 200, text });
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Adder {
  @Tool({ name: "add" })
  add(@Arg() args: AddArgs) {
    return String(args.a + args.b);
  }
}

describe("LaneWriteQueue", () => {
  it("writes the answers of one turn after it, in order", async () => {
    const log: string[] = [];
    const queue = new LaneWriteQueue();
    const errors: Error[] = [];
    queue.push(asResponse(fakeResponse(log, "a")), flight(), bytes("1"), (e) => errors.push(e));
    queue.push(asResponse(fakeResponse(log, "b")), flight(), bytes("22"), (e) => errors.push(e));
    await Promise.resolve();
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(["a head 200 1", "a end 1", "b head 200 2", "b end 22"]);
    expect(errors).toEqual([]);
    queue.push(asResponse(fakeResponse(log, "c")), flight(), bytes("3"), (e) => errors.push(e));
    await nextTurn();
    expect(log.slice(4)).toEqual(["c head 200 1", "c end 3"]);
  });

  it("skips an answer whose client went away or whose flight the drain stopped", async () => {
    const log: string[] = [];
    const queue = new LaneWriteQueue();
    const gone = fakeResponse(log, "gone");
    const stopped = flight();
    queue.push(asResponse(gone), flight(), bytes("1"), () => undefined);
    queue.push(asResponse(fakeResponse(log, "ended")), stopped, bytes("2"), () => undefined);
    queue.push(asResponse(fakeResponse(log, "kept")), flight(), bytes("3"), () => undefined);
    gone.destroyed = true;
    stopped.stopped = true;
    await nextTurn();
    expect(log).toEqual(["kept head 200 1", "kept end 3"]);
  });

  it("hands what a write throws to that answer's onerror, ends it, and writes the rest", async () => {
    const log: string[] = [];
    const queue = new LaneWriteQueue();
    const errors: string[] = [];
    queue.push(asResponse(fakeResponse(log, "bad", { throwOnHead: true })), flight(), bytes("1"), (e) => errors.push(e.message));
    queue.push(asResponse(fakeResponse(log, "good")), flight(), bytes("2"), (e) => errors.push(e.message));
    await nextTurn();
    expect(errors).toEqual(["bad: head refused"]);
    expect(log).toEqual(["bad destroy", "good head 200 1", "good end 2"]);
  });

  it("corks a kept head so that it leaves with its tail", async () => {
    const log: string[] = [];
    const queue = new LaneWriteQueue();
    const kept: LaneBytes = { kind: "bytes", status: 200, text: "HEAD,7}", kept: { head: Buffer.from("HEAD,"), tail: "7}" } };
    queue.push(asResponse(fakeResponse(log, "page")), flight(), kept, () => undefined);
    await nextTurn();
    expect(log).toEqual(["page head 200 7", "page cork", "page write HEAD,", "page end 7}"]);
  });

  it("answers concurrent requests on several connections each with its own answer", async () => {
    const app = McpApp.create({ components: [Adder], state: { ephemeral: true } });
    const listener = await app.listen({ port: 0 });
    try {
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "add",
      };
      const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
      const call = async (id: number) => {
        const body = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: id, b: 1000 }, _meta } };
        const response = await fetch(listener.url, { method: "POST", headers, body: JSON.stringify(body) });
        return { status: response.status, json: (await response.json()) as { id: number; result: { content: { text: string }[] } } };
      };
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i + 1)));
      for (const [i, answer] of answers.entries()) {
        expect(answer.status).toBe(200);
        expect(answer.json.id).toBe(i + 1);
        expect(answer.json.result.content[0]!.text).toBe(String(i + 1 + 1000));
      }
    } finally {
      await app.close();
    }
  });
});
