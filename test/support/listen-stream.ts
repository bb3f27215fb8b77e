// Opens a subscriptions/listen POST and reads its SSE stream message by message (raw fetch, no
// client in between), for exact assertions on acknowledgement, filtering and subscription ids.
import { meta, PROTOCOL } from "./raw-http";
import { SseDataReader } from "../../src/testing/sse-events";

export interface ListenStream {
  status: number;
  contentType: string | null;
  /** The next JSON-RPC message on the stream; rejects after `timeoutMs` (a guard, not a wait). */
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Ends the stream from the client side (how HTTP cancels a listen). */
  close(): Promise<void>;
}

export async function openListen(url: string, id: number | string, notifications: Record<string, unknown>): Promise<ListenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": "subscriptions/listen",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications } }),
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const ready: Record<string, unknown>[] = [];
  const events = new SseDataReader();

  async function next(timeoutMs = 5000): Promise<Record<string, unknown>> {
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no message on the listen stream within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      while (ready.length === 0) {
        const { value, done } = await Promise.race([reader.read(), guard]);
        if (done) throw new Error("the listen stream ended");
        for (const data of events.read(value)) ready.push(JSON.parse(data));
      }
      return ready.shift()!;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    next,
    close: async () => {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}
