import { AsyncLocalStorage } from "node:async_hooks";
import type { AppLogger, AppLogLevel, LogScope } from "./app-logger";

/** The part of a pino logger the adapter uses (pino is an optional peer: its types are not needed). */
export interface PinoLike {
  child(bindings: Record<string, unknown>, options?: { level?: string }): PinoLike;
  debug(object: Record<string, unknown>, message: string): void;
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** Options of `pinoLogger`. */
export interface PinoLoggerOptions {
  /** A pino logger of your own: entries go to a child of it. Default a new pino writing to `destination`. */
  logger?: PinoLike;
  /** The lowest level written. Default "info", or your logger's own level when you give one. */
  level?: AppLogLevel;
  /** Where a new pino writes. Default stderr (stdout belongs to the stdio transport). */
  destination?: NodeJS.WritableStream;
}

/** The command that installs pino: an optional peer dependency of roundtrip-mcp. */
export const PINO_INSTALL_COMMAND = "npm install pino@10";

/**
 * The app logger as pino JSON lines: every entry made while a request is handled (in its
 * asynchronous continuations too) carries `requestId` (the JSON-RPC id), `traceId` (its span's
 * trace, or the `traceparent` it carried) and `principal`. pino is loaded only when this is called
 * without a `logger` of your own.
 *
 * @example McpApp.create({ components, state, logger: pinoLogger({ level: "debug" }) })
 */
export function pinoLogger(options: PinoLoggerOptions = {}): AppLogger {
  const base = options.logger ?? newPino(options);
  const pino = options.logger !== undefined && options.level !== undefined ? base.child({}, { level: options.level }) : base;
  return new PinoAppLogger(pino);
}

class PinoAppLogger implements AppLogger {
  private readonly scopes = new AsyncLocalStorage<LogScope>();

  constructor(private readonly pino: PinoLike) {}

  debug(message: string, fields?: Record<string, unknown>): void {
    this.pino.debug(this.entry(fields), message);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.pino.info(this.entry(fields), message);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.pino.warn(this.entry(fields), message);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.pino.error(this.entry(fields), message);
  }
  withScope<T>(scope: LogScope, fn: () => T): T {
    return this.scopes.run(scope, fn);
  }

  /** The entry's fields, then the request's (which a field of the same name cannot hide). */
  private entry(fields: Record<string, unknown> | undefined): Record<string, unknown> {
    const scope = this.scopes.getStore();
    if (scope === undefined) return fields ?? {};
    return {
      ...fields,
      ...(scope.requestId !== undefined && { requestId: scope.requestId }),
      ...(scope.traceId !== undefined && { traceId: scope.traceId }),
      principal: scope.principal,
    };
  }
}

function newPino(options: PinoLoggerOptions): PinoLike {
  let pino: (options: Record<string, unknown>, destination: NodeJS.WritableStream) => PinoLike;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: pino is an optional peer
    pino = require("pino") as typeof pino;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const missing = (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND" && message.includes("'pino'");
    throw new Error(
      missing
        ? "pinoLogger: the package pino is not installed (roundtrip-mcp lists it as an optional peer dependency). In your app, " +
            `run: ${PINO_INSTALL_COMMAND}, or pass a logger of your own as pinoLogger({ logger })`
        : `pinoLogger: pino could not be loaded: ${message.split("\n")[0]}`,
      { cause: error },
    );
  }
  return pino({ level: options.level ?? "info" }, options.destination ?? process.stderr);
}
