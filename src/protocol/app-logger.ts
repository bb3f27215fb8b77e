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
}

/** Container token for the app logger (an interface has no runtime class). */
export const APP_LOGGER = Symbol.for("roundtrip-mcp.AppLogger");

type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One JSON line per entry on stderr; stdout stays free for the stdio transport. */
export class StderrLogger implements AppLogger {
  constructor(private readonly minimum: Level = "info") {}
  debug(message: string, fields?: Record<string, unknown>): void { this.write("debug", message, fields); }
  info(message: string, fields?: Record<string, unknown>): void { this.write("info", message, fields); }
  warn(message: string, fields?: Record<string, unknown>): void { this.write("warn", message, fields); }
  error(message: string, fields?: Record<string, unknown>): void { this.write("error", message, fields); }
  private write(level: Level, message: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.minimum]) return;
    process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
  }
}

/** Discards everything; for tests that assert on nothing logged. */
export class SilentLogger implements AppLogger {
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
}

/** Keeps entries in memory; tests read `entries` to see precise reasons. */
export class MemoryLogger implements AppLogger {
  readonly entries: { level: Level; message: string; fields?: Record<string, unknown> }[] = [];
  debug(message: string, fields?: Record<string, unknown>): void { this.entries.push({ level: "debug", message, fields }); }
  info(message: string, fields?: Record<string, unknown>): void { this.entries.push({ level: "info", message, fields }); }
  warn(message: string, fields?: Record<string, unknown>): void { this.entries.push({ level: "warn", message, fields }); }
  error(message: string, fields?: Record<string, unknown>): void { this.entries.push({ level: "error", message, fields }); }
}
