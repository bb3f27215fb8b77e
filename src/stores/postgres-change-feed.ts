import type { PgPool as Pool } from "./pg-client";
import { PostgresListener, warnSafely } from "./postgres-listener";
import type { StoreLogger } from "./task-store";

/** What the feed tells its store. */
export interface ChangeFeedHandlers {
  /** A task changed (its new revision) or was deleted (undefined). */
  notice(taskId: string, revision: number | undefined): void;
  /** Notifications may have been missed: re-read every watched task. */
  resync(): Promise<void>;
}

/**
 * The task store's LISTEN on its one channel (PostgresListener: a dedicated connection,
 * reconnect with backoff, heartbeat). While that connection is lost it polls (`resync`) every
 * `pollMs` until it is back, and resyncs once more after the new LISTEN, so no change falls in
 * the gap.
 */
export class PostgresChangeFeed {
  private readonly listener: PostgresListener;
  private pollTimer?: NodeJS.Timeout;
  /** A resync is under way: a poll tick skips rather than queue another one behind it. */
  private resyncing = false;
  /** A failed resync was logged; stay quiet until one succeeds. */
  private failing = false;

  constructor(
    pool: Pool,
    channel: string,
    private readonly handlers: ChangeFeedHandlers,
    private readonly logger: StoreLogger,
    private readonly pollMs: number,
    heartbeatMs: number,
  ) {
    this.listener = new PostgresListener(
      pool,
      {
        notification: (_channel, payload) => {
          const [taskId, revision] = payload.split(" ");
          // split always returns at least one item.
          this.handlers.notice(taskId!, revision === "gone" ? undefined : Number(revision));
        },
        lost: () => {
          this.pollTimer ??= setInterval(() => void this.resync(), this.pollMs);
          this.pollTimer.unref();
        },
        restored: async () => {
          clearInterval(this.pollTimer);
          this.pollTimer = undefined;
          await this.resync();
        },
      },
      logger,
      {
        lost: "The PostgreSQL task store lost its LISTEN connection; polling until it is back",
        retrying: "The PostgreSQL task store could not listen again yet; retrying with backoff",
        restored: "The PostgreSQL task store is listening for changes again",
      },
      heartbeatMs,
      [channel],
    );
  }

  /** Resolves once LISTEN is active. */
  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): void {
    this.listener.stop();
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
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

  private warn(message: string, fields: Record<string, unknown>): void {
    warnSafely(this.logger, message, fields);
  }
}
