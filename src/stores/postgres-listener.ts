import type { PgPool as Pool, PgPoolClient as PoolClient, PgQueryConfig as QueryConfig } from "./pg-client";
import type { StoreLogger } from "./task-store";

/** What the listener tells its owner. */
export interface ListenerEvents {
  /** A NOTIFY on one of the listened channels. */
  notification(channel: string, payload: string): void;
  /** The LISTEN connection was lost: notifications may be missed until `restored`. */
  lost(): void;
  /** Listening again on every channel after a loss. */
  restored(): void | Promise<void>;
}

/** The log lines of one owner, so each names what lost its connection. */
export interface ListenerMessages {
  readonly lost: string;
  readonly retrying: string;
  readonly restored: string;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;
/** A channel name LISTEN takes as it is: a lower-case identifier needs no quoting, and nothing else is let in. */
const PLAIN_CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * LISTEN on a set of channels through one dedicated pooled connection. When that connection is
 * lost it reconnects with backoff (100 ms doubling to 5 s) and listens again on every channel;
 * it logs the loss, the first failed retry, and the restore (whichever connect makes it).
 * Its connection has an 'error' listener for as long as it holds it: a lost connection is logged,
 * never thrown. A silent connection (a frozen server, a partition that never resets it) delivers
 * nothing and reports nothing, so the listener sends a heartbeat every `heartbeatMs` and counts a
 * heartbeat unanswered within `heartbeatMs` as a loss.
 */
export class PostgresListener {
  private client?: PoolClient;
  private readonly channels = new Set<string>();
  /** The channels the current connection listens on. */
  private listened = new Set<string>();
  private starting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private heartbeatTimer?: NodeJS.Timeout;
  private backoffMs = MIN_BACKOFF_MS;
  /** The current connection's queries, one at a time (pg deprecates overlapping queries on one client). */
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** The connection was lost and is not back: the next connect is the restore, whoever makes it. */
  private down = false;
  /** A failed reconnect was logged; stay quiet until one succeeds. */
  private reconnecting = false;

  constructor(
    private readonly pool: Pool,
    private readonly events: ListenerEvents,
    private readonly logger: StoreLogger,
    private readonly messages: ListenerMessages,
    private readonly heartbeatMs: number,
    initialChannels: readonly string[] = [],
  ) {
    for (const channel of initialChannels) this.channels.add(plainChannel(channel));
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Resolves once LISTEN is active on every channel added so far. */
  start(): Promise<void> {
    this.stopped = false;
    if (this.client) return Promise.resolve();
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /**
   * Listens on `channel` too; resolves once it does, or at once while the connection is lost:
   * like every channel added, it is listened on again as soon as the connection is back.
   */
  async add(channel: string): Promise<void> {
    this.channels.add(plainChannel(channel));
    if (this.starting) await this.starting.catch(() => undefined);
    const client = this.client;
    if (client === undefined || this.listened.has(channel)) return;
    try {
      await this.query(client, `LISTEN ${channel}`);
    } catch (error) {
      // The connection failed under the LISTEN: the reconnect listens on every channel.
      if (this.client !== client) return;
      throw error;
    }
    if (this.client === client) this.listened.add(channel);
  }

  /** Stops listening on `channel`. Never rejects: a lost connection listens on nothing anyway. */
  async remove(channel: string): Promise<void> {
    this.channels.delete(channel);
    const client = this.client;
    if (client === undefined || !this.listened.delete(channel)) return;
    await this.query(client, `UNLISTEN ${channel}`).catch(() => undefined);
  }

  stop(): void {
    this.stopped = true;
    this.down = false;
    this.reconnecting = false;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    // Destroyed, not returned: a pooled connection must not keep listening.
    client?.release(true);
  }

  private async connect(): Promise<void> {
    const client = await this.pool.connect();
    /** The connection failed before it became the listener's (pg may report it before the last LISTEN's await resumes). */
    let failed: Error | undefined;
    // Stays attached after release too: a destroyed connection may still report its end.
    const lost = (error?: Error) => {
      if (this.client === client) this.lost(client, error);
      else failed ??= error ?? new Error("Connection terminated unexpectedly");
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.payload === undefined || !this.listened.has(message.channel)) return;
      this.events.notification(message.channel, message.payload);
    });
    const listened = new Set<string>();
    try {
      // A channel added while the connection opens is listened on before start() resolves.
      for (let pending = [...this.channels]; pending.length > 0; pending = [...this.channels].filter((c) => !listened.has(c)))
        for (const channel of pending) {
          await client.query(`LISTEN ${channel}`);
          listened.add(channel);
        }
      if (failed) throw failed;
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (this.stopped) {
      client.release(true);
      return;
    }
    this.client = client;
    this.listened = listened;
    this.queue = Promise.resolve();
    this.backoffMs = MIN_BACKOFF_MS;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => this.heartbeat(client), this.heartbeatMs);
    this.heartbeatTimer.unref();
    if (this.down) this.restored();
  }

  /**
   * Listening again after a loss, whether the retry timer or the owner's own start() connected,
   * and at the first retry or a later one: every "lost" in the log is followed by "restored".
   */
  private restored(): void {
    this.down = false;
    this.reconnecting = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.warn(this.messages.restored, {});
    void this.call(() => this.events.restored());
  }

  private heartbeat(client: PoolClient): void {
    if (this.client !== client) return;
    // query_timeout per query is pg's (its types omit it): bounds the heartbeat on a pool the app gave too.
    this.query(client, { text: "SELECT 1", query_timeout: this.heartbeatMs } as QueryConfig).then(
      () => undefined,
      (error: Error) => this.lost(client, error),
    );
  }

  private query(client: PoolClient, query: string | QueryConfig): Promise<unknown> {
    const next = this.queue.then(() => (typeof query === "string" ? client.query(query) : client.query(query)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private lost(client: PoolClient, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listened = new Set();
    clearInterval(this.heartbeatTimer);
    client.release(error ?? true);
    if (this.stopped) return;
    this.down = true;
    this.warn(this.messages.lost, { error: error?.message ?? "connection ended" });
    void this.call(() => this.events.lost());
    this.reconnect();
  }

  /** Arms the one retry timer (a connect that succeeds meanwhile clears it: see restored()). */
  private reconnect(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stopped || !this.down) return;
      this.start().catch((error: unknown) => {
        if (this.stopped || !this.down) return;
        if (!this.reconnecting) this.warn(this.messages.retrying, { error: error instanceof Error ? error.message : String(error) });
        this.reconnecting = true;
        this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
        this.reconnect();
      });
    }, this.backoffMs);
    this.reconnectTimer.unref();
  }

  /** Runs an owner's hook inside an event: what it throws is logged, never uncaught. */
  private async call(hook: () => void | Promise<void>): Promise<void> {
    try {
      await hook();
    } catch (error) {
      this.warn("A PostgreSQL LISTEN hook failed", { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private warn(message: string, fields: Record<string, unknown>): void {
    warnSafely(this.logger, message, fields);
  }
}

function plainChannel(channel: string): string {
  if (!PLAIN_CHANNEL.test(channel))
    throw new Error(`PostgresListener: a channel name must match ${PLAIN_CHANNEL.source}, got ${JSON.stringify(channel)}`);
  return channel;
}

/** Logs from inside an event: a logger that throws must not turn a lost connection into an uncaught exception. */
export function warnSafely(logger: StoreLogger, message: string, fields: Record<string, unknown>): void {
  try {
    logger.warn(message, fields);
  } catch {
    // Nothing better to do with a broken logger inside an event.
  }
}
