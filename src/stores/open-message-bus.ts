import { MemoryMessageBus, type MessageBus } from "./message-bus";
import { PostgresMessageBus, type PostgresMessageBusOptions } from "./postgres-message-bus";
import { TaskStoreConfigError } from "./task-store-errors";

/** What `openMessageBus` passes to a PostgreSQL bus (its connection comes from the URL). */
export type OpenMessageBusOptions = Omit<PostgresMessageBusOptions, "connectionString" | "pool">;

/**
 * Opens the bus a URL names:
 * - `memory:`: this process only (one instance);
 * - `postgres://…` or `postgresql://…`: every instance on that database (LISTEN/NOTIFY).
 *
 * Anything else throws TaskStoreConfigError naming the scheme (never the rest, which may hold a password).
 */
export async function openMessageBus(url: string, options: OpenMessageBusOptions = {}): Promise<MessageBus> {
  if (typeof url !== "string") throw new TaskStoreConfigError("A message bus URL must be a string");
  if (url === "memory:")
    return new MemoryMessageBus((error) =>
      options.logger?.warn("A message bus subscriber threw; the others still receive the message", { error: String(error) }),
    );
  if (url.startsWith("postgres://") || url.startsWith("postgresql://"))
    return PostgresMessageBus.open({ ...options, connectionString: url });
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  throw new TaskStoreConfigError(
    `${scheme === undefined ? "A message bus URL needs a scheme" : `Unknown message bus scheme "${scheme}:"`}; expected memory: or postgres://…`,
  );
}
