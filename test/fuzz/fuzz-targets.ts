// Where the fuzz sweep sends its cases: an HTTP listener (node:http client, any method and
// headers), a stdio child process (raw lines) and an in-process connection (messages as values).
// Each reports what came back for one case: the status, every JSON-RPC message, what was not one,
// and whether an answer that was due never came.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Agent, request } from "node:http";
import { InMemoryTransport, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import type { FuzzCase } from "./fuzz-cases";
import { sentinel } from "./fuzz-cases";

/** What one case produced. */
export interface Observation {
  /** The HTTP status, over HTTP. */
  readonly status?: number;
  /** Every JSON-RPC message received for the case. */
  readonly messages: readonly unknown[];
  /** Bodies or lines that were not JSON. */
  readonly notJson: readonly string[];
  /** A due answer that did not come in time, or a connection that failed. */
  readonly hang?: string;
}

export interface FuzzTarget {
  readonly name: string;
  send(fuzz: FuzzCase): Promise<Observation>;
  close(): Promise<void>;
}

/** The id an answer must echo: a request's string or integer id (anything else is answered without one, or not at all). */
function dueId(message: unknown): string | number | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (typeof method !== "string") return undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
}

export class HttpTarget implements FuzzTarget {
  readonly name = "http";
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  send(fuzz: FuzzCase): Promise<Observation> {
    return new Promise((resolve) => {
      const body = typeof fuzz.body === "string" ? Buffer.from(fuzz.body, "utf8") : fuzz.body;
      const req = request(this.url, {
        method: fuzz.httpMethod,
        headers: { ...fuzz.headers, "content-length": String(body.length) },
        agent: this.agent,
      });
      const timer = setTimeout(() => {
        req.destroy();
        resolve({ messages: [], notJson: [], hang: `no response within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode,
            ...parseBody(Buffer.concat(chunks).toString("utf8"), String(res.headers["content-type"] ?? "")),
          });
        });
        res.on("error", (error) => {
          clearTimeout(timer);
          resolve({ status: res.statusCode, messages: [], notJson: [], hang: `response failed: ${error.message}` });
        });
      });
      req.on("error", (error) => {
        clearTimeout(timer);
        resolve({ messages: [], notJson: [], hang: `request failed: ${error.message}` });
      });
      req.end(body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

function parseBody(text: string, contentType: string): { messages: unknown[]; notJson: string[] } {
  const messages: unknown[] = [];
  const notJson: string[] = [];
  const parts = contentType.includes("text/event-stream")
    ? text
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5))
    : text.length > 0
      ? [text]
      : [];
  for (const part of parts) {
    try {
      messages.push(JSON.parse(part));
    } catch {
      notJson.push(part.slice(0, 200));
    }
  }
  return { messages, notJson };
}

/**
 * One connection, cases in turn: each case is followed by a sentinel request, and the case is
 * done when the sentinel is answered and, for a case that is a request, its own answer came.
 */
abstract class ConnectionTarget implements FuzzTarget {
  abstract readonly name: string;
  private next = 0;
  private collected: unknown[] = [];
  private notJson: string[] = [];
  private waiter: (() => void) | undefined;

  constructor(protected readonly timeoutMs: number) {}

  protected receive(message: unknown): void {
    this.collected.push(message);
    this.waiter?.();
  }

  protected receiveText(line: string): void {
    try {
      this.receive(JSON.parse(line));
    } catch {
      this.notJson.push(line.slice(0, 200));
      this.waiter?.();
    }
  }

  protected abstract write(fuzz: FuzzCase | Record<string, unknown>): Promise<void> | void;
  abstract close(): Promise<void>;

  async send(fuzz: FuzzCase): Promise<Observation> {
    const id = `sentinel-${this.next++}`;
    this.collected = [];
    this.notJson = [];
    const due = dueId(fuzz.message);
    // A due answer may come without the id when the server could not read it (a line over the
    // body limit is refused unread): any error without an id in the case's window answers it.
    const answers = (m: unknown) =>
      (m as { id?: unknown }).id === due || ((m as { error?: unknown }).error !== undefined && !("id" in (m as object)));
    const done = () => this.collected.some((m) => (m as { id?: unknown }).id === id) && (due === undefined || this.collected.some(answers));
    await this.write(fuzz);
    await this.write(sentinel(id));
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.timeoutMs);
      this.waiter = () => {
        if (done()) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      this.waiter();
    });
    this.waiter = undefined;
    const messages = this.collected.filter((m) => (m as { id?: unknown }).id !== id);
    return { messages, notJson: this.notJson, ...(!answered && { hang: `no answer within ${this.timeoutMs} ms (due id ${String(due)})` }) };
  }
}

export class StdioTarget extends ConnectionTarget {
  readonly name = "stdio";
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(command: { command: string; args: string[]; env: Record<string, string> }, timeoutMs: number) {
    super(timeoutMs);
    this.child = spawn(command.command, command.args, { env: { ...process.env, ...command.env }, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    this.child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        this.receiveText(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
      }
    });
    this.child.stderr.resume();
  }

  protected write(fuzz: FuzzCase | Record<string, unknown>): Promise<void> {
    const body = "body" in fuzz && "kinds" in fuzz ? (fuzz as FuzzCase).body : JSON.stringify(fuzz);
    return new Promise((resolve) => {
      this.child.stdin.write(body);
      this.child.stdin.write("\n", () => resolve());
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((resolve) => this.child.once("exit", resolve));
  }
}

export class InProcessTarget extends ConnectionTarget {
  readonly name = "in-process";

  private constructor(
    private readonly transport: Transport,
    timeoutMs: number,
  ) {
    super(timeoutMs);
    transport.onmessage = (message) => this.receive(message);
  }

  /** A client side of an in-memory pair whose server side `serve` serves. */
  static async open(serve: (serverSide: Transport) => void, timeoutMs: number): Promise<InProcessTarget> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serve(serverSide);
    const target = new InProcessTarget(clientSide, timeoutMs);
    await clientSide.start();
    return target;
  }

  protected write(fuzz: FuzzCase | Record<string, unknown>): Promise<void> {
    const message = "body" in fuzz && "kinds" in fuzz ? (fuzz as FuzzCase).message : fuzz;
    return this.transport.send(message as JSONRPCMessage);
  }

  /** Cases with no JSON message (broken text) cannot travel in memory. */
  accepts(fuzz: FuzzCase): boolean {
    return fuzz.message !== undefined;
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
