// How the PostgreSQL store tells a database it cannot use now from any other error, and says which.
import { TaskStoreError, TaskStoreUnavailableError } from "./task-store-errors";

/** The bounds in force, for the messages that name them. */
export interface PostgresBounds {
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly poolSize: number;
}

/**
 * SQLSTATE classes and socket errors that mean the database cannot be used now (57014 is a
 * statement cancelled by statement_timeout, 25P03 a session ended by the idle-in-transaction timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08|28|53|57|58|3D000|25P03)/;
const UNAVAILABLE_ERRNO = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
const QUERY_TIMEOUT = "Query read timeout";
const CONNECT_TIMEOUT = "timeout exceeded when trying to connect";
/** A new connection that did not finish its handshake within connectionTimeoutMillis. */
const HANDSHAKE_TIMEOUT = "Connection terminated due to connection timeout";
const UNAVAILABLE_MESSAGE = new RegExp(
  `Connection terminated|${CONNECT_TIMEOUT}|${QUERY_TIMEOUT}|Client has encountered a connection error|Client was closed|not queryable|Cannot use a pool after calling end`,
);
/** A statement the server cancelled leaves its connection usable (a ROLLBACK ends the transaction). */
const CANCELLED = "57014";

function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) ||
    (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message))
  );
}

/** The connection cannot be trusted any more: the pool must discard it, never lend it again. */
export function isBrokenConnection(error: unknown): boolean {
  return isConnectionError(error) && (error as { code?: unknown }).code !== CANCELLED;
}

/**
 * What the server said about its own error (say "terminating connection due to administrator
 * command"), but not about a login (class 28 names the user) nor a socket's (which names the host).
 */
function serverSaid(error: unknown): string {
  const { code, message, severity } = error as { code?: unknown; message?: unknown; severity?: unknown };
  if (typeof severity !== "string" || typeof message !== "string" || !message || String(code).startsWith("28")) return "";
  return `: ${message}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A pg error that means the database cannot be used now, as a TaskStoreUnavailableError naming
 * what happened and whose (`noun`: "task store", "message bus"); any other error as is.
 */
export function translatePostgresError(error: unknown, bounds: PostgresBounds, noun = "task store"): unknown {
  if (error instanceof TaskStoreError || !isConnectionError(error)) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const what =
    message === QUERY_TIMEOUT
      ? `: no answer from the database within queryTimeoutMs (${bounds.queryTimeoutMs} ms), so the connection was dropped; the database is frozen, overloaded or unreachable`
      : message === CONNECT_TIMEOUT || message === HANDSHAKE_TIMEOUT
        ? `: no connection within connectTimeoutMs (${bounds.connectTimeoutMs} ms); the database is unreachable or all ${bounds.poolSize} pooled connections are busy`
        : typeof code === "string"
          ? ` (${code})${serverSaid(error)}`
          : typeof message === "string" && message
            ? `: ${message}`
            : "";
  return new TaskStoreUnavailableError(`The PostgreSQL ${noun} is unavailable${what}`, { cause: error });
}
