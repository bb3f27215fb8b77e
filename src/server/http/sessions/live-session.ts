import type { AuthInfo, JSONRPCMessage, Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { JsonValue } from "../../../protocol/canonical-json";
import { isPlainObject } from "../../../protocol/plain-object";
import type { CallRow } from "../../../stores/session-state";
import type { LocalStream } from "./local-stream";
import type { SessionEventLog } from "./session-event-log";
import type { RoundsSession } from "./session-rounds";
import type { LiveSettings } from "./session-settings";
import type { SessionTransport } from "./session-transport";
import type { RequestId, SessionRef } from "./stream-tokens";

/** The URL of a request the session makes to itself (its SDK transport does not read it). */
const INTERNAL_URL = "http://localhost/mcp";

/** One 2025 session as this instance serves it: an SDK `Server` of the 2025 era on the SDK's sessionful transport. */
export class LiveSession implements RoundsSession {
  lastUsed: number;
  waiting = 0;
  /** POSTs carrying requests open their streams one at a time (see `SessionEventLog`). */
  private opening: Promise<unknown> = Promise.resolve();

  constructor(
    readonly ref: SessionRef,
    readonly server: Server,
    readonly transport: WebStandardStreamableHTTPServerTransport,
    readonly sessionTransport: SessionTransport,
    readonly events: SessionEventLog,
    readonly settings: LiveSettings,
    now: number,
  ) {
    this.lastUsed = now;
  }

  get id(): string {
    return this.ref.id;
  }

  get principal(): string | null {
    return this.ref.principal;
  }

  send(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): Promise<void> {
    return this.sessionTransport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  /** A POST carrying requests: its stream is bound to them while the SDK opens it. */
  post(request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> {
    const messages = (Array.isArray(body) ? body : [body]) as unknown[];
    const ids = messages.flatMap((m) => (isPlainObject(m) && typeof m.method === "string" && isRequestId(m.id) ? [m.id] : []));
    const stream = this.events.begin(ids, Array.isArray(body) || ids.length !== 1 ? undefined : (body as JsonValue));
    return this.open(stream, () => this.transport.handleRequest(request, { parsedBody: body, authInfo }));
  }

  /**
   * Runs here a call another instance began (claimed in the shared state): its request goes to this
   * session's SDK server as the client sent it, on a stream of the call's own key one generation
   * up, and the round runner takes it from its recorded round. The events reach the client through
   * the stream it resumed (on this instance or another); this request's own response is not read.
   */
  async takeOver(call: CallRow, authInfo: AuthInfo): Promise<void> {
    const id = isPlainObject(call.request) && isRequestId(call.request.id) ? call.request.id : undefined;
    if (id === undefined) throw new Error("the shared state holds a call without a request id");
    const stream = this.events.begin([id], call.request, call);
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-session-id": this.id };
    const response = await this.open(stream, () =>
      this.transport.handleRequest(new Request(INTERNAL_URL, { method: "POST", headers }), { parsedBody: call.request, authInfo }),
    );
    await response.body?.cancel().catch(() => undefined);
    if (response.status !== 200) throw new Error(`the session refused the call taken over (${response.status})`);
  }

  /** Ends the SSE streams the SDK holds for a stream's requests (their calls left this instance). */
  closeStreams(stream: LocalStream): void {
    for (const id of stream.name.requestIds) this.transport.closeSSEStream(id);
  }

  private open(stream: LocalStream, open: () => Promise<Response>): Promise<Response> {
    const opened = this.opening.then(async () => {
      this.events.expect(stream);
      try {
        const response = await open();
        // Refused before a stream opened (a bad header, a closed transport): nothing will be written to it.
        if (!response.headers.get("content-type")?.includes("text/event-stream")) this.events.abandon(stream);
        return response;
      } finally {
        this.events.expect(undefined);
      }
    });
    this.opening = opened.catch(() => undefined);
    return opened;
  }
}

function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || typeof id === "number";
}
