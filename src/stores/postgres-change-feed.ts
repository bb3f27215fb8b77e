import type { PgPool as Pool, PgPoolClient as PoolClient, PgQueryConfig as QueryConfig } from "./pg-client";
import type { StoreLogger } from "./task-store";

/** What the feed tells its store. */
export interface ChangeFeedHandlers {
  /** A task changed (its new revision) or was deleted (undefined). */
  notice(taskId: string, revision: number | undefined): void;
  /** Notifications may have been missed: re-read every watched task. */
  resync(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;

/**
 * LISTEN on one channel through a dedicated pooled connection. When that connection is lost it
 * polls (`resync`) every `pollMs` until it is back, reconnects with backoff (100 ms doubling to
 * 5 s), and resyncs once more after the new LISTEN, so no change falls in the gap. Its connection
 * has an 'error' listener for as long as it holds it: a lost connection is logged, never thrown.
 * A silent connection (a frozen server, a partition that never resets it) delivers nothing and
 * reports nothing, so the feed sends a heartbeat every `heartbeatMs` and counts a heartbeat
 * unanswered within `heartbeatMs` as a loss.
 */
export class PostgresChangeFeed {
  private client?: PoolClient;
  private starting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  /** A resync is under way: a poll tick skips rather than queue another one behind it. */
  private resyncing = false;
  private backoffMs = MIN_BACKOFF_MS;
  private stopped = false;
  /** A failed resync was logged; stay quiet until one succeeds. */
  private failing = false;
  /** A failed reconnect was logged; stay quiet until one succeeds. */
  private reconnecting = false;

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
    private readonly handlers: ChangeFeedHandlers,
    private readonly logger: StoreLogger,
    private readonly pollMs: number,
    private readonly heartbeatMs: number,
  ) {}

  /** Resolves once LISTEN is active. */
  start(): Promise<void> {
    this.stopped = false;
    if (this.client) return Promise.resolve();
    this.starting ??= this.listen().finally(() => (this.starting = undefined));
    return this.starting;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    // Destroyed, not returned: a pooled connection must not keep listening.
    client?.release(true);
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    // Stays attached after release too: a destroyed connection may still report its end.
    const lost = (error?: Error) => this.lost(client, error);
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      const [taskId, revision] = message.payload.split(" ");
      this.handlers.notice(taskId, revision === "gone" ? undefined : Number(revision));
    });
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (this.stopped) {
      client.release(true);
      return;
    }
    this.client = client;
    this.backoffMs = MIN_BACKOFF_MS;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => this.heartbeat(client), this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  private heartbeat(client: PoolClient): void {
    if (this.client !== client) return;
    // query_timeout per query is pg's (its types omit it): bounds the heartbeat on a pool the app gave too.
    client.query({ text: "SELECT 1", query_timeout: this.heartbeatMs } as QueryConfig).then(
      () => undefined,
      (error: Error) => this.lost(client, error),
    );
  }

  private lost(client: PoolClient, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeatTimer);
    client.release(error ?? true);
    if (this.stopped) return;
    this.warn("The PostgreSQL task store lost its LISTEN connection; polling until it is back", {
      error: error?.message ?? "connection ended",
    });
    this.pollTimer ??= setInterval(() => void this.resync(), this.pollMs);
    this.pollTimer.unref();
    this.reconnect();
  }

  private reconnect(): void {
    this.reconnectTimer = setTimeout(async () => {
      if (this.stopped) return;
      try {
        await this.start();
      } catch (error) {
        if (this.stopped) return;
        if (!this.reconnecting)
          this.warn("The PostgreSQL task store could not listen again yet; retrying with backoff", {
            error: error instanceof Error ? error.message : String(error),
          });
        this.reconnecting = true;
        this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
        this.reconnect();
        return;
      }
      if (this.reconnecting) this.warn("The PostgreSQL task store is listening for changes again", {});
      this.reconnecting = false;
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
      await this.resync();
    }, this.backoffMs);
    this.reconnectTimer.unref();
  }

  /** Logs; a logger that throws must not turn a lost connection into an uncaught exception. */
  private warn(message: string, fields: Record<string, unknown>): void {
    try {
      this.logger.warn(message, fields);
    } catch {
      // Nothing better to do with a broken logger inside an event.
    }
  }

  private async resync(): Promise<void> {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      await this.handlers.resync();
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.warn("The PostgreSQL task store could not look for changes", {
          error: error instanceof Error ? error.message : String(error),
        });
      this.failing = true;
    } finally {
      this.resyncing = false;
    }
  }
}
