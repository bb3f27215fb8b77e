// The durable task stores: one contract (TaskStore), three stores, a URL factory.
export type { JsonValue } from "./json-value";
export type { JsonObject } from "../protocol/wire-types";
export {
  type TaskStatus,
  type RetryPolicy,
  type TaskError,
  type TaskProgress,
  type TaskLease,
  type LeaseRef,
  type TaskRecord,
  type ClaimedTask,
  type CreateTaskInput,
  type ProgressUpdate,
  type TaskListener,
  type TaskWatch,
  TERMINAL_STATUSES,
  isTerminal,
} from "./task-record";
export { type TaskStore, type TaskLimits, type StoreLogger, DEFAULT_TASK_LIMITS } from "./task-store";
export {
  TaskStoreError,
  type TaskStoreErrorCode,
  TaskNotFoundError,
  StaleLeaseError,
  TaskFinishedError,
  InputKeyReusedError,
  TaskLimitError,
  TaskExistsError,
  type TaskLimitName,
  TaskStoreUnavailableError,
  TaskStoreConfigError,
} from "./task-store-errors";
export { MAX_LEASE_MS, MAX_TTL_MS, MAX_ATTEMPTS, DEFAULT_RERUN_ATTEMPTS, MAX_CREATION_KEY_LENGTH } from "./task-transitions";
export { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
export type { TaskRow, RowAt, ChangedRow, BatchSelection } from "./task-row";
export type { RowChange, NewTask } from "./task-transitions";
export { MemoryTaskStore, type MemoryTaskStoreOptions } from "./memory-task-store";
export { SqliteTaskStore, type SqliteTaskStoreOptions } from "./sqlite-task-store";
export { PostgresTaskStore, type PostgresTaskStoreOptions } from "./postgres-task-store";
export type { PgPool, PgPoolClient, PgQueryResult, PgQueryResultRow, PgQueryConfig, PgNotification } from "./pg-client";
export type { PostgresPoolOptions } from "./postgres-pool";
export {
  openTaskStore,
  type OpenTaskStoreOptions,
  type PostgresUrlOptions,
  DEFAULT_TASK_STORE_URL,
  DEFAULT_SQLITE_FILE,
  defaultDataDir,
} from "./open-task-store";
export { type MessageBus, type BusHandler, MemoryMessageBus } from "./message-bus";
export type { RateLimitStore } from "./rate-limit-store";
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions, DEFAULT_MAX_BUCKETS } from "./memory-rate-limit-store";
export { PostgresRateLimitStore, type PostgresRateLimitStoreOptions } from "./postgres-rate-limit-store";
export { PostgresMessageBus, type PostgresMessageBusOptions, POSTGRES_MESSAGE_BUS_DEFAULTS } from "./postgres-message-bus";
export { openMessageBus, type OpenMessageBusOptions } from "./open-message-bus";
