import { createHash } from "node:crypto";
import type { JsonValue } from "./json-value";
import type { BusHandler, MessageBus } from "./message-bus";
import type { PgPool as Pool } from "./pg-client";
import { type PostgresBounds, messageOf, translatePostgresError } from "./postgres-errors";
import { PostgresListener, warnSafely } from "./postgres-listener";
import { POSTGRES_TIMEOUT_DEFAULTS, PoolGuard, type PostgresPoolOptions, pgTransaction, postgresPool } from "./postgres-pool";
import { PostgresSessionState } from "./postgres-session-state";
import { provideSessionState, type SessionStateStore } from "./session-state";
import type { StoreLogger } from "./task-store";
import { TaskStoreConfigError, TaskStoreUnavailableError } from "./task-store-errors";

/** Where the PostgreSQL bus connects (the task store's pool options and bounds) and its own bounds. */
export interface PostgresMessageBusOptions extends PostgresPoolOptions {
  /**
   * The schema of the table holding messages too large for a NOTIFY (created if missing), and the
   * namespace of the bus's channels: buses with another schema on one database never hear each
   * other. Default "public". Lower-case letters, digits, _.
   */
  readonly schema?: string;
  /** Where the bus logs a lost connection or a message it could not deliver (default: process warnings). */
  readonly logger?: StoreLogger;
  /** The largest message `publish` takes, as UTF-8 JSON (default 1 MiB); a larger one is refused. */
  readonly maxMessageBytes?: number;
  /**
   * How long the row of a large message is kept for the subscribers to read (default 60000 ms);
   * older rows are deleted by the next large publish.
   */
  readonly largeMessageTtlMs?: number;
}

/** The defaults of the bus's own bounds. */
export const POSTGRES_MESSAGE_BUS_DEFAULTS = Object.freeze({ poolSize: 4, maxMessageBytes: 1_048_576, largeMessageTtlMs: 60_000 });

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; one byte of ours marks its kind. */
const NOTIFY_PAYLOAD_LIMIT = 7999;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,39}$/;
/** Payload kinds: the message itself, or the id of the row holding it. */
const INLINE = "m";
const IN_ROW = "r";

const defaultLogger: StoreLogger = {
  warn: (message, fields) => process.emitWarning(fields ? `${message} ${JSON.stringify(fields)}` : message, "MessageBusWarning"),
};

interface Channel {
  readonly name: string;
  readonly handlers: Set<BusHandler>;
  /** Deliveries on this channel run in order, a large message's read included. */
  tail: Promise<void>;
}

/**
 * A MessageBus over PostgreSQL LISTEN/NOTIFY, for every instance sharing one database. Each bus
 * channel is a NOTIFY channel named by a hash of the schema and the channel (any string is a
 * safe channel). A message of up to 7998 bytes travels in the NOTIFY payload; a larger one (up to
 * `maxMessageBytes`) is written to a row whose id the NOTIFY carries, read by each subscriber, and
 * deleted `largeMessageTtlMs` later. One dedicated connection listens (PostgresListener: reconnect
 * with backoff, heartbeat); while it is lost the bus is not `healthy` and `publish` rejects at once
 * with TaskStoreUnavailableError; a `subscribe` then resolves at once, and once the connection is
 * back every subscription listens again by itself, those made in the gap included (messages
 * published in the gap are not delivered: the bus carries wake-ups).
 */
export class PostgresMessageBus implements MessageBus {
  /** The schema of the large messages' table, and the namespace of the channels. */
  readonly schema: string;
  private readonly listener: PostgresListener;
  private readonly guard: PoolGuard;
  private readonly channels = new Map<string, Channel>();
  private readonly table: string;
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    ownsPool: boolean,
    private readonly bounds: PostgresBounds,
    private readonly logger: StoreLogger,
    private readonly maxMessageBytes: number,
    private readonly largeMessageTtlMs: number,
    schema: string,
  ) {
    this.schema = schema;
    this.table = `${schema}.roundtrip_bus_messages`;
    // Before any connection opens: see PoolGuard.
    this.guard = new PoolGuard(pool, ownsPool, "message bus", (message, fields) => warnSafely(logger, message, fields));
    this.listener = new PostgresListener(
      pool,
      { notification: (name, payload) => this.notification(name, payload), lost: () => undefined, restored: () => undefined },
      logger,
      {
        lost: "The PostgreSQL message bus lost its LISTEN connection; publish fails until it is back",
        retrying: "The PostgreSQL message bus could not listen again yet; retrying with backoff",
        restored: "The PostgreSQL message bus is listening again",
      },
      // A heartbeat as patient as any query: a silent LISTEN connection is found within twice that.
      bounds.queryTimeoutMs || POSTGRES_TIMEOUT_DEFAULTS.queryTimeoutMs,
    );
    // The 2025 sessions' shared state lives in tables of this schema, on this pool (made at first use).
    let state: SessionStateStore | undefined;
    provideSessionState(this, () => (state ??= new PostgresSessionState(pool, schema, bounds, logger)));
  }

  /** Connects, creates the table of large messages if missing, and listens. */
  static async open(options: PostgresMessageBusOptions): Promise<PostgresMessageBus> {
    const schema = options.schema ?? "public";
    if (!SCHEMA_NAME.test(schema))
      throw new TaskStoreConfigError(`The PostgreSQL message bus's schema name must match ${SCHEMA_NAME.source}`);
    if ((options.pool === undefined) === (options.connectionString === undefined))
      throw new TaskStoreConfigError("The PostgreSQL message bus needs exactly one of connectionString and pool");
    const maxMessageBytes = positive(options, "maxMessageBytes");
    const largeMessageTtlMs = positive(options, "largeMessageTtlMs");
    const { pool, ownsPool, bounds } = postgresPool({
      ...options,
      poolSize: options.pool ? options.poolSize : (options.poolSize ?? POSTGRES_MESSAGE_BUS_DEFAULTS.poolSize),
    });
    const bus = new PostgresMessageBus(pool, ownsPool, bounds, options.logger ?? defaultLogger, maxMessageBytes, largeMessageTtlMs, schema);
    try {
      await bus.run(() => bus.migrate());
      await bus.run(() => bus.listener.start());
    } catch (error) {
      await bus.close();
      throw error;
    }
    return bus;
  }

  get healthy(): boolean {
    return !this.closed && this.listener.listening;
  }

  async publish(channel: string, message: JsonValue): Promise<void> {
    if (this.closed) throw new Error("PostgresMessageBus.publish: the bus is closed");
    if (typeof channel !== "string") throw new TypeError("PostgresMessageBus.publish: the channel must be a string");
    this.checkListening();
    const text = JSON.stringify(message);
    if (typeof text !== "string") throw new TypeError("PostgresMessageBus.publish: the message must be a JSON value");
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > this.maxMessageBytes)
      throw new RangeError(
        `PostgresMessageBus.publish: the message on channel ${JSON.stringify(channel.slice(0, 80))} is ${bytes} bytes of JSON, over maxMessageBytes (${this.maxMessageBytes}); send a smaller message (a bus carries wake-ups: keep large data in a store and publish its key) or raise maxMessageBytes`,
      );
    const name = this.channelName(channel);
    if (bytes < NOTIFY_PAYLOAD_LIMIT) {
      await this.run(() => this.pool.query("SELECT pg_notify($1, $2)", [name, INLINE + text]));
      return;
    }
    // One statement: old rows go, the row is written, and its NOTIFY is sent when it commits.
    await this.run(() =>
      this.pool.query(
        `WITH gone AS (DELETE FROM ${this.table} WHERE created_at < clock_timestamp() - $3 * interval '1 millisecond'),
              kept AS (INSERT INTO ${this.table} (body) VALUES ($2) RETURNING id)
         SELECT pg_notify($1, '${IN_ROW}' || kept.id) FROM kept`,
        [name, text, this.largeMessageTtlMs],
      ),
    );
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    if (this.closed) throw new Error("PostgresMessageBus.subscribe: the bus is closed");
    if (typeof channel !== "string") throw new TypeError("PostgresMessageBus.subscribe: the channel must be a string");
    if (typeof handler !== "function") throw new TypeError("PostgresMessageBus.subscribe: the handler must be a function");
    const name = this.channelName(channel);
    let entry = this.channels.get(name);
    if (entry === undefined) this.channels.set(name, (entry = { name, handlers: new Set(), tail: Promise.resolve() }));
    // Each subscription is its own entry, so one handler subscribed twice is called twice.
    const own: BusHandler = (message) => handler(message);
    entry.handlers.add(own);
    const end = async (): Promise<void> => {
      const current = this.channels.get(name);
      if (current === undefined || !current.handlers.delete(own) || current.handlers.size > 0) return;
      this.channels.delete(name);
      await this.listener.remove(name);
    };
    try {
      await this.run(() => this.listener.add(name));
    } catch (error) {
      await end();
      throw error;
    }
    return end;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listener.stop();
    this.channels.clear();
    await this.guard.close(this.bounds.queryTimeoutMs);
  }

  /** The NOTIFY channel of a bus channel: a lower-case identifier whatever the channel holds. */
  private channelName(channel: string): string {
    return `rt_bus_${createHash("sha256").update(this.schema).update("\0").update(channel).digest("hex").slice(0, 40)}`;
  }

  private checkListening(): void {
    if (!this.listener.listening) throw this.unavailable();
  }

  private unavailable(): TaskStoreUnavailableError {
    return new TaskStoreUnavailableError(
      "The PostgreSQL message bus is unavailable: its LISTEN connection to the database is lost; it reconnects by itself, retry once the database is back",
    );
  }

  private notification(name: string, payload: string): void {
    const entry = this.channels.get(name);
    if (entry === undefined) return;
    entry.tail = entry.tail.then(() => this.deliver(entry, payload));
  }

  private async deliver(entry: Channel, payload: string): Promise<void> {
    let text: string;
    if (payload.startsWith(INLINE)) text = payload.slice(1);
    else if (payload.startsWith(IN_ROW) && /^\d+$/.test(payload.slice(1))) {
      try {
        const { rows } = await this.run(() => this.pool.query(`SELECT body FROM ${this.table} WHERE id = $1`, [payload.slice(1)]));
        if (rows.length === 0)
          return this.warn("The PostgreSQL message bus dropped a large message whose row was already deleted", {
            largeMessageTtlMs: this.largeMessageTtlMs,
          });
        text = rows[0].body as string;
      } catch (error) {
        return this.warn("The PostgreSQL message bus could not read a large message; it is not delivered", { error: messageOf(error) });
      }
    } else return this.warn("The PostgreSQL message bus ignored a notification it did not send", { channel: entry.name });
    let message: JsonValue;
    try {
      message = JSON.parse(text) as JsonValue;
    } catch {
      return this.warn("The PostgreSQL message bus ignored a notification that is not JSON", { channel: entry.name });
    }
    for (const handler of [...entry.handlers]) {
      try {
        handler(message);
      } catch (error) {
        this.warn("A message bus subscriber threw; the others still receive the message", { error: messageOf(error) });
      }
    }
  }

  private async migrate(): Promise<void> {
    await pgTransaction(
      this.pool,
      "message bus",
      async (client) => {
        // Serialized, so instances opening at once do not race on CREATE … IF NOT EXISTS.
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`roundtrip_bus_schema/${this.schema}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.table} (id bigserial PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
        );
        await client.query(`CREATE INDEX IF NOT EXISTS roundtrip_bus_messages_created ON ${this.table} (created_at)`);
      },
      (message, fields) => this.warn(message, fields),
    );
  }

  private warn(message: string, fields: Record<string, unknown>): void {
    warnSafely(this.logger, message, fields);
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translatePostgresError(error, this.bounds, "message bus");
    }
  }
}

function positive(options: PostgresMessageBusOptions, name: "maxMessageBytes" | "largeMessageTtlMs"): number {
  const value = options[name] ?? POSTGRES_MESSAGE_BUS_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value < 1 || value > 2 ** 31 - 1)
    throw new TaskStoreConfigError(
      `The PostgreSQL message bus's ${name} must be a whole number from 1 to ${2 ** 31 - 1}, got ${String(value)}`,
    );
  return value;
}
