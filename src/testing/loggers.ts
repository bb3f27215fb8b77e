import type { AppLogger, AppLogLevel } from "../protocol/app-logger";

/** Discards everything; for tests that assert on nothing logged. */
export class SilentLogger implements AppLogger {
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
}

/** One line the app logged, as a `MemoryLogger` keeps it. */
export interface MemoryLogEntry {
  level: AppLogLevel;
  message: string;
  fields?: Record<string, unknown>;
}

/** Keeps entries in memory; tests read `entries` to see precise reasons. */
export class MemoryLogger implements AppLogger {
  readonly entries: MemoryLogEntry[] = [];
  debug(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: "debug", message, fields });
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: "error", message, fields });
  }
}
