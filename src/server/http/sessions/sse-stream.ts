/** Comment lines on an idle stream, as the SDK's transport sends them: proxies that cut idle reads keep it open. */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();

/**
 * A server-sent events response written by the session itself (a stream resumed with
 * `Last-Event-ID`), framed as the SDK's transport frames its own: `event: message`, `id`, `data`.
 */
export class SseStream {
  readonly response: Response;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly keepAlive: NodeJS.Timeout;
  private ended = false;
  private readonly endings: (() => void)[] = [];

  constructor(sessionId: string) {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.controller = controller),
      // The client went away.
      cancel: () => this.finish(),
    });
    this.response = new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
        "mcp-session-id": sessionId,
      },
    });
    this.keepAlive = setInterval(() => this.write(": keepalive\n\n"), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Called once when the stream ends, whoever ends it. */
  onEnd(ending: () => void): void {
    if (this.ended) ending();
    else this.endings.push(ending);
  }

  /**
   * An event with an id and no message, first on a resumed stream: a client (the official 2025 SDK)
   * resumes a stream that ends from the last id it read *on that stream*, and without one it would
   * reconnect without `Last-Event-ID` and never hear of its request again.
   */
  prime(id: string, retryMs: number): void {
    this.write(`id: ${id}\nretry: ${retryMs}\ndata: \n\n`);
  }

  /** One message, with its event id when it has one. */
  send(id: string | undefined, message: unknown): void {
    this.write(`event: message\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`);
  }

  close(): void {
    if (this.ended) return;
    try {
      this.controller.close();
    } catch {
      // Already cancelled by the client.
    }
    this.finish();
  }

  private write(text: string): void {
    if (this.ended) return;
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch {
      this.finish();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    for (const ending of this.endings.splice(0)) ending();
  }
}
