// Tells a PostgreSQL outage (the database cannot be used now: the store answers
// TaskStoreUnavailableError) from any other failure, which is passed on as it is.
import { TaskStoreError, TaskStoreUnavailableError } from "./task-store-errors";

/** SQLSTATE classes and socket errors that mean the database cannot be used now. */
const UNAVAILABLE_SQLSTATE = /^(08|28|53|57|58|3D000)/;
const UNAVAILABLE_ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/;

/** Whether `error` says the database (or the way to it) cannot be used now. */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) || (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message));
}

/** An outage as a TaskStoreUnavailableError (the driver's error as its cause); anything else unchanged. */
export function translatePostgresError(error: unknown): unknown {
  if (error instanceof TaskStoreError || !isConnectionError(error)) return error;
  const code = (error as { code?: unknown }).code;
  return new TaskStoreUnavailableError(`The PostgreSQL task store is unavailable${typeof code === "string" ? ` (${code})` : ""}`, { cause: error });
}
