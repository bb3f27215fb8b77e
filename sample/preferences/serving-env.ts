// What an operator tunes when running the preferences sample behind a load balancer, from its
// environment (documented in README.md beside PORT, STATE_KEYS and MCP_BUS, and in
// docs/deployment.md):
// - HOST: the interface to bind (default 127.0.0.1; 0.0.0.0 in a container), with
// - ALLOWED_HOSTS: the Host names (comma-separated) clients reach it by, ports not compared
//   (default localhost, 127.0.0.1, [::1]);
// - MCP_POLL_AFTER_MS: close a 2025 call's SSE stream after this long (sessions.pollAfterMs);
//   the client resumes it, on any instance, with Last-Event-ID. Keep it under the balancer's
//   read timeout;
// - MCP_RETRY_MS: how long a 2025 client waits before it resumes a stream (sessions.retryMs);
// - MCP_TAKEOVER_AFTER_MS: how long a stopped instance is taken for alive before another
//   takes its calls over (sessions.takeoverAfterMs);
// - MCP_DRAIN_TIMEOUT_MS: on SIGTERM, how long requests in flight may finish before what is
//   left is ended or handed over (drainTimeoutMs). Keep it under the orchestrator's grace period.
import type { ListenOptions, SessionOptions } from "roundtrip-mcp";

export interface ServingEnv {
  readonly host: string;
  readonly port: number;
  readonly allowedHosts?: string[];
  readonly sessions: SessionOptions;
  readonly drainTimeoutMs?: number;
}

export function servingFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ServingEnv {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`);
  const hosts = env.ALLOWED_HOSTS?.split(",")
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  const sessions: SessionOptions = {
    pollAfterMs: millis(env, "MCP_POLL_AFTER_MS"),
    retryMs: millis(env, "MCP_RETRY_MS"),
    takeoverAfterMs: millis(env, "MCP_TAKEOVER_AFTER_MS"),
  };
  const drainTimeoutMs = millis(env, "MCP_DRAIN_TIMEOUT_MS");
  return {
    host: env.HOST?.trim() || "127.0.0.1",
    port,
    ...(hosts !== undefined && hosts.length > 0 && { allowedHosts: hosts }),
    sessions,
    ...(drainTimeoutMs !== undefined && { drainTimeoutMs }),
  };
}

/** The listen() options of the environment (the path is the sample's own). */
export function listenOptions(serving: ServingEnv): ListenOptions {
  return {
    host: serving.host,
    port: serving.port,
    path: "/mcp",
    ...(serving.allowedHosts !== undefined && { allowedHosts: serving.allowedHosts }),
    ...(serving.drainTimeoutMs !== undefined && { drainTimeoutMs: serving.drainTimeoutMs }),
    // GET /healthz and /readyz, for a load balancer's or an orchestrator's probes.
    health: true,
  };
}

function millis(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive whole number of milliseconds, got ${JSON.stringify(env[name])}`);
  return value;
}
