// The fast lane's differential harness: one app served twice over HTTP (a listener with the lane,
// one without) and as two stdio children (ROUNDTRIP_FAST_LANE on and off); every case is sent to
// both sides and the answers compared: the HTTP status, the relevant headers, and the JSON-RPC
// bodies, byte for byte and after key sorting. Values that differ between any two runs (sealed
// requestState tokens, which carry the second they were sealed in; task ids and timestamps; error
// ids) are replaced by placeholders in both before comparing.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { HttpListener, McpApp } from "../../src/index";
import { fixtureCommand } from "./fixture-server";

export interface HttpCase {
  /** Sent as is when a string (not JSON, for example), else JSON-encoded. */
  body: unknown;
  headers: Record<string, string>;
  method?: string;
  label?: string;
}

export interface Compared {
  /** Undefined when both sides agree; else what differs. */
  difference?: string;
  /** Whether the bodies were byte-equal (after placeholders) before key sorting. */
  byteEqual: boolean;
  /** Whether the lane side's listener answered it from the lane (a guess from nothing: not known here). */
  status: number;
}

const HEADERS_COMPARED = ["content-type", "allow", "www-authenticate", "content-length", "connection"];

/** Placeholders for values that differ between two runs of the same request. */
export function normalize(text: string): string {
  return text
    .replace(/rt\d\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "<sealed>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/error id [A-Za-z0-9_-]+/g, "error id <id>");
}

/** The JSON text with every object's keys sorted (arrays keep their order); the text itself when not JSON. */
export function sortedJson(text: string): string {
  if (text.length === 0) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value));
}

/** The data lines of an SSE body, one message per line; a JSON body as it is. */
function messagesOf(text: string, contentType: string | null): string {
  if (!contentType?.includes("text/event-stream")) return text;
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .join("\n");
}

/** One app behind two listeners: `on` with the fast lane, `off` without. */
export class HttpPair {
  private constructor(
    readonly app: McpApp,
    readonly on: HttpListener,
    readonly off: HttpListener,
  ) {}

  static async start(app: McpApp): Promise<HttpPair> {
    return new HttpPair(app, await app.listen({ fastLane: true }), await app.listen({ fastLane: false }));
  }

  async compare(c: HttpCase): Promise<Compared> {
    const [a, b] = await Promise.all([send(this.on.url, c), send(this.off.url, c)]);
    const problems: string[] = [];
    if (a.status !== b.status) problems.push(`status ${a.status} (lane) vs ${b.status} (sdk)`);
    for (const name of HEADERS_COMPARED) {
      if (a.headers.get(name) !== b.headers.get(name)) problems.push(`header ${name}: ${a.headers.get(name)} vs ${b.headers.get(name)}`);
    }
    const bodyA = normalize(messagesOf(a.text, a.headers.get("content-type")));
    const bodyB = normalize(messagesOf(b.text, b.headers.get("content-type")));
    const sortedA = bodyA.split("\n").map(sortedJson).join("\n");
    const sortedB = bodyB.split("\n").map(sortedJson).join("\n");
    if (sortedA !== sortedB) problems.push(`body\n    lane: ${bodyA.slice(0, 600)}\n    sdk:  ${bodyB.slice(0, 600)}`);
    return { difference: problems.length > 0 ? problems.join("; ") : undefined, byteEqual: bodyA === bodyB, status: b.status };
  }

  async close(): Promise<void> {
    await this.on.close();
    await this.off.close();
  }
}

async function send(url: string, c: HttpCase): Promise<{ status: number; headers: Headers; text: string }> {
  const body = typeof c.body === "string" ? c.body : JSON.stringify(c.body);
  const response = await fetch(url, {
    method: c.method ?? "POST",
    headers: c.headers,
    ...(c.method === undefined || c.method === "POST" ? { body } : {}),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A stdio child of a fixture app, fed one line at a time; each line's output ends at a sentinel's answer. */
class StdioSide {
  private buffer = "";
  private lines: string[] = [];
  private waiting?: { sentinel: string; expect: unknown; seenSentinel: boolean; seenExpected: boolean; resolve: (lines: string[]) => void };
  private sentinel = 0;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        const waiting = this.waiting;
        const id = idOf(line);
        if (waiting && id === waiting.sentinel) waiting.seenSentinel = true;
        else this.lines.push(line);
        if (waiting && waiting.expect !== undefined && id === waiting.expect) waiting.seenExpected = true;
        if (waiting && waiting.seenSentinel && (waiting.expect === undefined || waiting.seenExpected)) this.settle();
      }
    });
  }

  private settle(): void {
    const done = this.waiting;
    this.waiting = undefined;
    done?.resolve(this.lines.splice(0));
  }

  /**
   * Writes `line`, then a sentinel request; resolves with every other line written back once the
   * sentinel is answered and, when the line is a request with an id MCP allows (a string or an
   * integer), once that id is answered too (the two may come in either order: responses go out as
   * they complete). Any other id is refused at once, without an id, before the sentinel. A request
   * the server never answers ends the wait after `quietMs`.
   */
  exchange(line: string, sentinel: (id: string) => string, quietMs = QUIET_MS): Promise<string[]> {
    const id = `sentinel-${++this.sentinel}`;
    let expect: unknown;
    try {
      const parsed = JSON.parse(line) as { id?: unknown; method?: unknown };
      if (
        parsed &&
        typeof parsed === "object" &&
        !Array.isArray(parsed) &&
        typeof parsed.method === "string" &&
        (typeof parsed.id === "string" || Number.isInteger(parsed.id))
      )
        expect = parsed.id;
    } catch {
      // not JSON: answered before the sentinel
    }
    return new Promise((resolve) => {
      this.waiting = { sentinel: id, expect, seenSentinel: false, seenExpected: false, resolve };
      const waiting = this.waiting;
      this.child.stdin.write(`${line}\n${sentinel(id)}\n`);
      setTimeout(() => {
        if (this.waiting === waiting) this.settle();
      }, quietMs).unref();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
      setTimeout(() => this.child.kill("SIGKILL"), 5_000).unref();
    });
  }
}

/** How long a stdio exchange waits for a request the server never answers. */
const QUIET_MS = 3_000;
/** How long the opening exchange of a new child may take (its start included). */
const STARTUP_MS = 60_000;

function idOf(line: string): unknown {
  try {
    return (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

/** One fixture app as two stdio children: `on` with the fast lane, `off` without. */
export class StdioPair {
  private constructor(
    private readonly on: StdioSide,
    private readonly off: StdioSide,
    private readonly sentinel: (id: string) => string,
  ) {}

  /** Starts both children and pins both connections to the modern era with `opening`. */
  static async start(fixture: string, sentinel: (id: string) => string, opening: string): Promise<StdioPair> {
    const { command, args, env } = fixtureCommand(fixture);
    const side = (lane: string) =>
      new StdioSide(spawn(command, args, { env: { ...process.env, ...env, ROUNDTRIP_FAST_LANE: lane }, stdio: "pipe" }));
    const pair = new StdioPair(side("on"), side("off"), sentinel);
    // A child that just started may take seconds to answer on a loaded machine: the opening is
    // always answered, so wait for it rather than let its late answer leak into the first case.
    await pair.compare(opening, STARTUP_MS);
    return pair;
  }

  async compare(line: string, quietMs = QUIET_MS): Promise<Compared> {
    const [a, b] = await Promise.all([this.on.exchange(line, this.sentinel, quietMs), this.off.exchange(line, this.sentinel, quietMs)]);
    const textA = normalize(a.join("\n"));
    const textB = normalize(b.join("\n"));
    const sortedA = textA.split("\n").map(sortedJson).sort().join("\n");
    const sortedB = textB.split("\n").map(sortedJson).sort().join("\n");
    return {
      difference: sortedA === sortedB ? undefined : `lines\n    lane: ${textA.slice(0, 600)}\n    sdk:  ${textB.slice(0, 600)}`,
      byteEqual: textA.split("\n").sort().join("\n") === textB.split("\n").sort().join("\n"),
      status: 0,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.on.close(), this.off.close()]);
  }
}
