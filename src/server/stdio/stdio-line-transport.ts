import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { ErrorCode } from "../../protocol/errors";
import { errorResponse } from "../checks/error-response";
import type { InboundChecks, Rejection } from "../checks/inbound-checks";
import { requestIdOf } from "../checks/request-limits";

const NEWLINE = 0x0a;
/** How much of a line too long to keep is kept to find its id (requests name it near the start). */
const ID_PREFIX_BYTES = 4096;

/**
 * The SDK's stdio transport (its writing, stdout error handling and end-of-input shutdown) with
 * the framework's own reading of lines, because the SDK's answers nothing to a bad line: it skips
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
export class StdioLineTransport extends StdioServerTransport {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line already refused as too large: its bytes are dropped until its newline. */
  private discarding = false;

  constructor(
    private readonly checks: InboundChecks,
    stdin?: Readable,
    stdout?: Writable,
  ) {
    super(stdin, stdout);
  }

  override _ondata = (chunk: Buffer): void => {
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
    // as unknown as: _closed and _stdout are the SDK transport's private fields, which no public type exposes.
    const self = this as unknown as { _closed: boolean; _stdout: Writable };
    if (self._closed) return Promise.reject(new Error("StdioServerTransport is closed"));
    const stdout = self._stdout;
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
