import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { ErrorCode } from "../../protocol/errors";
import { errorResponse } from "../checks/error-response";
import type { InboundChecks, Rejection } from "../checks/inbound-checks";
import { requestIdOf } from "../checks/request-limits";

const NEWLINE = 0x0a;
/** How much of a line too long to keep is kept to find its id (requests name it near the start). */
const ID_PREFIX_BYTES = 4096;
/** Marks the stdout error listener a closed transport leaves to swallow late write failures (the SDK's way, too). */
const SWALLOWS_AFTER_CLOSE = Symbol("swallowsErrorsAfterClose");

/**
 * The stdio transport: the writing, stdout error handling and end-of-input shutdown of the SDK's
 * `StdioServerTransport` (2.4.0), without loading the SDK (a stdio server answers its first
 * request before the SDK is needed), and the framework's own reading of lines, because the
 * SDK's answers nothing to a bad line: it skips
 * a line that is not JSON, and closes the connection (exit code 0, nothing said) when a line
 * outgrows its buffer. Here every line gets an answer and the process keeps serving:
 * - a line over `maxBodyBytes` is dropped as it streams in (never buffered whole) and answered
 *   -32600 "Request too large", with the id its first 4 KiB name;
 * - a line over a structural limit is answered -32602 naming the limit, before it is parsed;
 * - a line that is not JSON is answered -32700;
 * - blank lines are ignored.
 * Errors about a line whose id is unknown carry no id (the 2026-07-28 schema and the official SDK
 * accept an error response without one, not one with `"id": null`).
 */
export class StdioLineTransport implements Transport {
  private started = false;
  private closed = false;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line already refused as too large: its bytes are dropped until its newline. */
  private discarding = false;

  constructor(
    private readonly checks: InboundChecks,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly onStdinError = (error: Error): void => this.onerror?.(error);
  private readonly onStdinClose = (): void => void this.close();
  private readonly onStdoutError = Object.assign(
    (error: Error): void => {
      if (this.closed) return;
      this.onerror?.(error);
      void this.close();
    },
    { [SWALLOWS_AFTER_CLOSE]: false },
  );

  /** Starts reading stdin; stdin already ended closes the transport. */
  async start(): Promise<void> {
    if (this.started) throw new Error("StdioLineTransport already started: serve it once");
    this.started = true;
    for (const listener of this.stdout.listeners("error"))
      if ((listener as { [SWALLOWS_AFTER_CLOSE]?: boolean })[SWALLOWS_AFTER_CLOSE]) this.stdout.off("error", listener as never);
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinClose);
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onStdinError);
    this.stdin.on("end", this.onStdinClose);
    this.stdin.on("close", this.onStdinClose);
    this.stdout.on("error", this.onStdoutError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onStdinError);
    this.stdin.off("end", this.onStdinClose);
    this.stdin.off("close", this.onStdinClose);
    // Left attached so a write failing after the close does not crash the process.
    this.onStdoutError[SWALLOWS_AFTER_CLOSE] = true;
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  /** Writes one message as a line: resolves once written, or once stdout drained when it pushed back. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.sendLine(JSON.stringify(message));
  }

  private readonly ondata = (chunk: Buffer): void => {
    const max = this.checks.limits.maxBodyBytes;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      if (this.discarding) {
        if (newline >= 0) this.discarding = false;
      } else if (this.pendingBytes + (end - start) > max) {
        const id = requestIdOf(this.prefix(chunk.subarray(start, end)));
        this.pending = [];
        this.pendingBytes = 0;
        this.discarding = newline < 0;
        this.answer(this.checks.tooLarge(), id);
      } else {
        this.pending.push(chunk.subarray(start, end));
        this.pendingBytes += end - start;
        if (newline >= 0) this.line();
      }
      if (newline < 0) break;
      start = newline + 1;
    }
  };

  /** The first bytes of the pending line and `last`, as text. */
  private prefix(last: Buffer): string {
    const parts: Buffer[] = [];
    let size = 0;
    for (const part of [...this.pending, last]) {
      if (size >= ID_PREFIX_BYTES) break;
      const taken = part.subarray(0, ID_PREFIX_BYTES - size);
      parts.push(taken);
      size += taken.length;
    }
    return Buffer.concat(parts, size).toString("utf8");
  }

  private line(): void {
    let text = Buffer.concat(this.pending, this.pendingBytes).toString("utf8");
    this.pending = [];
    this.pendingBytes = 0;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim().length === 0) return;
    const checked = this.checks.text(text);
    if (checked.kind === "rejected") return this.answer(checked.rejection, checked.id);
    if (checked.kind === "unparsable")
      return this.answer({ code: ErrorCode.ParseError, message: "Parse error: the line is not valid JSON", status: 400 }, null);
    this.onmessage?.(checked.value as JSONRPCMessage);
  }

  /**
   * Writes one pre-serialized message as a line, as `send` writes one it serializes (the fast
   * lane's answers): resolves once written, or once stdout drained when it pushed back.
   */
  sendLine(json: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error("StdioServerTransport is closed"));
    const stdout = this.stdout;
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        stdout.off("drain", onDrain);
        reject(error);
      };
      const onDrain = () => {
        stdout.off("error", onError);
        resolve();
      };
      stdout.once("error", onError);
      if (stdout.write(`${json}\n`)) {
        stdout.off("error", onError);
        resolve();
      } else {
        stdout.once("drain", onDrain);
      }
    });
  }

  private answer(rejection: Rejection, id: string | number | null): void {
    this.send(errorResponse(rejection, id) as JSONRPCMessage).catch(() => undefined);
  }
}
