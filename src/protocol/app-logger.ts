/**
 * The application's own diagnostic logger (stderr by default). Precise reasons for failures
 * that the wire reports generically (state verification, internal errors) go here.
 * It never receives secrets or sealed data.
 */
export interface AppLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /**
   * Optional. Runs `fn` as the handling of one request: every entry logged meanwhile, in `fn`'s
   * asynchronous continuations too, belongs to `scope` (`pinoLogger` writes its fields on each).
   * The dispatcher calls it for every request when the logger has it, and never otherwise.
   */
  withScope?<T>(scope: LogScope, fn: () => T): T;
}

/** The request a log entry was made under. */
export interface LogScope {
  /** The JSON-RPC id of the request, when the transport gave it. */
  readonly requestId: string | number | undefined;
  /** The trace the request belongs to: its span's, or the `traceparent` it carried; undefined without either. */
  readonly traceId: string | undefined;
  /** The authenticated principal, or null for anonymous. */
  readonly principal: string | null;
}

/** Container token for the app logger (an interface has no runtime class). */
export const APP_LOGGER = Symbol.for("roundtrip-mcp.AppLogger");

/** The app logger's levels. */
export type AppLogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<AppLogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One JSON line per entry on stderr; stdout stays free for the stdio transport. */
export class StderrLogger implements AppLogger {
  constructor(private readonly minimum: AppLogLevel = "info") {}
  debug(message: string, fields?: Record<string, unknown>): void {
    this.write("debug", message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.write("info", message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write("warn", message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.write("error", message, fields);
  }
  private write(level: AppLogLevel, message: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.minimum]) return;
    process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
  }
}
