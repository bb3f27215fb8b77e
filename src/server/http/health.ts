import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReadinessProbe } from "../../features/feature-module";
import type { AppLogger } from "../../protocol/app-logger";

/**
 * Something readiness depends on besides the app's own features (the tasks feature's store is
 * always checked): an object with a `healthy` flag (a `MessageBus`: ready while it is true), or a
 * function that resolves when the dependency is reachable (to anything but `false`) and rejects or
 * returns `false` when it is not.
 */
export type ReadinessCheck = { readonly healthy: boolean } | (() => unknown);

/** The liveness and readiness endpoints (`listen({ health })`, `app.healthHandler(options)`). */
export interface HealthOptions {
  /** Answers 200 while the process can answer at all. Default "/healthz". */
  livenessPath?: string;
  /**
   * Answers 200 when the app can serve: every check passes and no graceful close has begun;
   * otherwise 503. Default "/readyz".
   */
  readinessPath?: string;
  /**
   * How long one readiness check may take before it counts as failed, in milliseconds. Keep it
   * under the probe's own timeout (Kubernetes' `timeoutSeconds`, 1 s by default). Default 800.
   */
  timeoutMs?: number;
  /** More dependencies, by the name the answer reports them under (a message bus, your own). */
  checks?: Record<string, ReadinessCheck>;
}

/** What a health endpoint answers (as JSON): the verdict, and each readiness check's. */
export interface HealthReport {
  readonly status: "ok" | "unavailable";
  /** Readiness only: each check's verdict ("ok", "failed", "timeout"). */
  readonly checks?: Readonly<Record<string, "ok" | "failed" | "timeout">>;
  /** Set while a graceful close is under way: "shutting down". */
  readonly reason?: string;
}

/** The health endpoints as a handler an app routes: web `fetch`, or Node `(req, res, next?)`. */
export interface HealthHandler {
  /** The liveness path 200, the readiness path 200 or 503, GET or HEAD; any other path 404. */
  fetch(request: Request): Promise<Response>;
  /** The same for node:http, Express, Fastify (`request.raw`, `reply.raw`): another path goes to `next`, else 404. */
  node(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** The liveness report, for a route of your own. */
  liveness(): HealthReport;
  /** The readiness report, for a route of your own (its `status` "ok" means 200). */
  readiness(): Promise<HealthReport>;
}

type Verdict = "ok" | "failed" | "timeout";

function path(value: string | undefined, fallback: string, name: string): string {
  if (value === undefined) return fallback;
  if (!value.startsWith("/")) throw new RangeError(`health: ${name} must be a path starting with "/", got ${JSON.stringify(value)}`);
  return value;
}

function asProbe(name: string, check: ReadinessCheck): ReadinessProbe {
  if (typeof check === "function")
    return {
      name,
      check: async () => {
        if ((await check()) === false) throw new Error(`${name}: the check returned false`);
      },
    };
  if (typeof check !== "object" || check === null || !("healthy" in check))
    throw new TypeError(`health: checks.${name} must be a function or an object with a healthy flag (a MessageBus)`);
  return {
    name,
    check: async () => {
      if (!check.healthy) throw new Error(`${name} reports healthy: false`);
    },
  };
}

/**
 * One app's health endpoints. Liveness is answered at once, from nothing but the event loop.
 * Readiness runs every check at once, each bounded by `timeoutMs`; a check still running from an
 * earlier probe is joined, not started again, so a frozen dependency costs one pending check
 * however often the probe asks. A change of verdict is logged once (a failure with its reasons).
 */
export class HealthEndpoints implements HealthHandler {
  readonly livenessPath: string;
  readonly readinessPath: string;
  private readonly timeoutMs: number;
  private readonly extra: ReadinessProbe[];
  private readonly running = new Map<string, Promise<void>>();
  private lastReady?: boolean;

  constructor(
    options: HealthOptions,
    private readonly features: () => readonly ReadinessProbe[],
    private readonly closing: () => boolean,
    private readonly logger: AppLogger,
  ) {
    this.livenessPath = path(options.livenessPath, "/healthz", "livenessPath");
    this.readinessPath = path(options.readinessPath, "/readyz", "readinessPath");
    if (this.livenessPath === this.readinessPath) throw new RangeError("health: livenessPath and readinessPath must differ");
    const timeout = options.timeoutMs ?? 800;
    if (!Number.isSafeInteger(timeout) || timeout < 1)
      throw new RangeError(`health: timeoutMs must be a positive integer, got ${String(timeout)}`);
    this.timeoutMs = timeout;
    this.extra = Object.entries(options.checks ?? {}).map(([name, check]) => asProbe(name, check));
  }

  /** Whether `pathname` is one of the two endpoints. */
  serves(pathname: string): boolean {
    return pathname === this.livenessPath || pathname === this.readinessPath;
  }

  liveness(): HealthReport {
    return { status: "ok" };
  }

  async readiness(): Promise<HealthReport> {
    if (this.closing()) return this.verdict({ status: "unavailable", reason: "shutting down" }, {});
    const probes = [...this.features(), ...this.extra];
    const reasons: Record<string, string> = {};
    const verdicts = await Promise.all(probes.map((probe) => this.run(probe, reasons)));
    // A close that began while the checks ran wins: the answer must not say ready.
    if (this.closing()) return this.verdict({ status: "unavailable", reason: "shutting down" }, {});
    const checks = Object.fromEntries(probes.map((probe, i) => [probe.name, verdicts[i]!]));
    return this.verdict({ status: verdicts.every((v) => v === "ok") ? "ok" : "unavailable", checks }, reasons);
  }

  async fetch(request: Request): Promise<Response> {
    const answer = await this.answer(request.method, new URL(request.url).pathname);
    return new Response(request.method === "HEAD" ? null : answer.body, { status: answer.status, headers: answer.headers });
  }

  node(req: IncomingMessage, res: ServerResponse, next?: () => void): void {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (next !== undefined && !this.serves(pathname)) return next();
    this.answer(req.method ?? "GET", pathname).then(
      (answer) => void res.writeHead(answer.status, answer.headers).end(req.method === "HEAD" ? undefined : answer.body),
      () => void res.writeHead(500).end(),
    );
  }

  /** The status, headers and JSON body for one request to `pathname`. */
  async answer(method: string, pathname: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      return {
        status,
        body: text,
        headers: {
          "content-type": "application/json",
          "cache-control": "no-store",
          "content-length": String(Buffer.byteLength(text)),
          ...extra,
        },
      };
    };
    if (!this.serves(pathname)) return json(404, { error: "Not found" });
    if (method !== "GET" && method !== "HEAD") return json(405, { error: "Method not allowed" }, { allow: "GET, HEAD" });
    const report = pathname === this.livenessPath ? this.liveness() : await this.readiness();
    return json(report.status === "ok" ? 200 : 503, report);
  }

  private async run(probe: ReadinessProbe, reasons: Record<string, string>): Promise<Verdict> {
    let pending = this.running.get(probe.name);
    if (pending === undefined) {
      pending = Promise.resolve()
        .then(() => probe.check())
        .finally(() => this.running.delete(probe.name));
      this.running.set(probe.name, pending);
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Verdict>((resolve) => {
      timer = setTimeout(() => {
        reasons[probe.name] = `no answer within ${this.timeoutMs} ms (timeoutMs)`;
        resolve("timeout");
      }, this.timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([
        pending.then(
          (): Verdict => "ok",
          (error: unknown): Verdict => {
            reasons[probe.name] = error instanceof Error ? error.message : String(error);
            return "failed";
          },
        ),
        timedOut,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Logs a change of verdict (once per change), and returns the report. */
  private verdict(report: HealthReport, reasons: Record<string, string>): HealthReport {
    const ready = report.status === "ok";
    if (ready !== this.lastReady) {
      const first = this.lastReady === undefined;
      this.lastReady = ready;
      if (!ready) this.logger.warn("not ready", { ...(report.reason && { reason: report.reason }), checks: report.checks, reasons });
      else if (!first) this.logger.info("ready again", { checks: report.checks });
    }
    return report;
  }
}
