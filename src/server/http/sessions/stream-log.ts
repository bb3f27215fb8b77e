import type { AppLogger } from "../../../protocol/app-logger";
import { isPlainObject } from "../../../protocol/plain-object";
import type { MessageBus } from "../../../stores/message-bus";
import type { SessionStateStore, StreamEventRow } from "../../../stores/session-state";
import type { LocalStream, LogEvent } from "./local-stream";

/** Where instances say which streams have new events in the shared log. */
const NOTICES_CHANNEL = "roundtrip-mcp/2025/streams";
/** Events and call ends waiting to be written, at most; past it the oldest are dropped (logged). */
const MAX_QUEUED = 20_000;
/** Stream keys in one notice, at most. */
const KEYS_PER_NOTICE = 200;

/** A client's stream resumed on this instance, following a stream this instance writes. */
export interface LocalWatcher {
  event(event: LogEvent): void;
  end(): void;
}

type Queued =
  { readonly kind: "event"; readonly row: StreamEventRow } | { readonly kind: "finish"; readonly stream: string; readonly gen: number };

/**
 * The events of this instance's streams on their way out: to the followers of a stream on this
 * instance at once (a client that resumed here), and to the shared log soon after (written
 * behind, in order, in batches), whose writes are announced on the bus so that followers on other
 * instances read them. A call's end is written after its last event. A write that fails is
 * logged and dropped: the stream then resumes on this instance only.
 */
export class StreamLog {
  private readonly local = new Map<string, Set<LocalWatcher>>();
  private readonly remote = new Map<string, Set<() => void>>();
  private queue: Queued[] = [];
  private flushing?: Promise<void>;
  private subscribed?: Promise<(() => Promise<void>) | undefined>;
  private failing = false;

  constructor(
    private readonly state: SessionStateStore,
    private readonly bus: MessageBus,
    private readonly logger: AppLogger,
    private readonly keepPerSession: number,
  ) {}

  /** An event of a stream written here. */
  record(stream: LocalStream, event: LogEvent): void {
    for (const watcher of [...(this.local.get(stream.key) ?? [])]) watcher.event(event);
    if (!stream.persist) return;
    const row = { stream: stream.key, session: stream.session.key, gen: event.gen, seq: event.seq, body: JSON.stringify(event.message) };
    this.enqueue({ kind: "event", row });
  }

  /** The call of `stream` ended (its final response is among the events before this). */
  finish(stream: LocalStream): void {
    this.enqueue({ kind: "finish", stream: stream.key, gen: stream.gen });
  }

  /** Tells `watcher` each event this instance writes to stream `key`; returns the function that stops it. */
  watchLocal(key: string, watcher: LocalWatcher): () => void {
    return watch(this.local, key, watcher);
  }

  /** This instance stopped writing stream `key` (it handed its call over): its watchers here end. */
  released(key: string): void {
    for (const watcher of [...(this.local.get(key) ?? [])]) watcher.end();
  }

  /** Calls `notice` whenever an instance announces new events of stream `key` in the shared log. */
  watchRemote(key: string, notice: () => void): () => void {
    this.subscribed ??= this.bus
      .subscribe(NOTICES_CHANNEL, (message) => this.noticed(message))
      .catch((error: unknown) => {
        this.logger.warn("2025 sessions: could not listen for stream notices; resumed streams poll the shared log instead", {
          error: error instanceof Error ? error.message : String(error),
        });
        return undefined;
      });
    return watch(this.remote, key, notice);
  }

  /** Resolves once everything queued now is written (or failed). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.flushing !== undefined) await (this.flushing ?? this.startFlush());
  }

  async close(): Promise<void> {
    await this.flush();
    const off = await this.subscribed;
    await off?.().catch(() => undefined);
  }

  private enqueue(item: Queued): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.queue.shift();
      this.warn("2025 sessions: the shared replay log is behind; the oldest unwritten event was dropped", { maxQueued: MAX_QUEUED });
    }
    this.queue.push(item);
    if (this.flushing === undefined) setImmediate(() => void this.startFlush());
  }

  private startFlush(): Promise<void> {
    if (this.flushing !== undefined) return this.flushing;
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
      if (this.queue.length > 0) setImmediate(() => void this.startFlush());
    });
    return this.flushing;
  }

  private async write(batch: readonly Queued[]): Promise<void> {
    const keys = new Set<string>();
    try {
      let rows: StreamEventRow[] = [];
      for (const item of batch) {
        if (item.kind === "event") {
          rows.push(item.row);
          keys.add(item.row.stream);
          continue;
        }
        await this.state.appendEvents(rows, this.keepPerSession);
        rows = [];
        await this.state.finishCall(item.stream, item.gen);
      }
      await this.state.appendEvents(rows, this.keepPerSession);
      this.failing = false;
    } catch (error) {
      this.warn("2025 sessions: events could not be written to the shared replay log; those streams resume on this instance only", {
        error: error instanceof Error ? error.message : String(error),
        events: batch.length,
      });
      this.failing = true;
      return;
    }
    if (!this.state.shared || keys.size === 0) return;
    const all = [...keys];
    for (let i = 0; i < all.length; i += KEYS_PER_NOTICE)
      await this.bus.publish(NOTICES_CHANNEL, { streams: all.slice(i, i + KEYS_PER_NOTICE) }).catch(() => undefined);
  }

  private noticed(message: unknown): void {
    if (!isPlainObject(message) || !Array.isArray(message.streams)) return;
    for (const key of message.streams) {
      if (typeof key !== "string") continue;
      for (const notice of [...(this.remote.get(key) ?? [])]) notice();
    }
  }

  private warn(message: string, fields: Record<string, unknown>): void {
    if (!this.failing) this.logger.warn(message, fields);
  }
}

function watch<T>(map: Map<string, Set<T>>, key: string, value: T): () => void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
  return () => {
    const current = map.get(key);
    if (current === undefined) return;
    current.delete(value);
    if (current.size === 0) map.delete(key);
  };
}
