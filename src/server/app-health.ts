import type { FeatureTable } from "../features/feature-table";
import type { ReadinessProbe } from "../features/feature-module";
import type { AppLogger } from "../protocol/app-logger";
import type { MessageBus } from "../stores/message-bus";
import { HealthEndpoints, type HealthOptions } from "./http/health";
import type { HttpRoute } from "./http/http-routes";

/** What an app's health endpoints read: its features' probes, its shared bus, whether it is closing. */
export interface AppHealthSources {
  readonly features: FeatureTable;
  /** The bus the application gave (`McpAppOptions.bus`): probed; the app's own in-memory bus is not. */
  readonly sharedBus: MessageBus | undefined;
  readonly closing: () => boolean;
  readonly logger: AppLogger;
}

/**
 * The app's liveness and readiness endpoints: readiness follows every feature's probe (the tasks
 * feature's store), a bus the application gave the app (a PostgreSQL bus is unhealthy while its
 * database is away), each of `options.checks`, and the app's close.
 */
export function appHealthEndpoints(options: HealthOptions, sources: AppHealthSources): HealthEndpoints {
  const { features, sharedBus, closing, logger } = sources;
  const busProbe: ReadinessProbe[] =
    sharedBus === undefined
      ? []
      : [
          {
            name: "messageBus",
            check: async () => {
              if (!sharedBus.healthy) throw new Error("the message bus reports healthy: false");
            },
          },
        ];
  return new HealthEndpoints(options, () => [...features.readiness(), ...busProbe], closing, logger);
}

/** The app's routes, and one listener's health endpoints beside them. */
export function withHealthRoutes(
  routes: ReadonlyMap<string, HttpRoute>,
  health: HealthEndpoints | undefined,
): ReadonlyMap<string, HttpRoute> {
  if (health === undefined) return routes;
  const all = new Map(routes);
  const route: HttpRoute = (req, res) => health.node(req, res);
  all.set(health.livenessPath, route).set(health.readinessPath, route);
  return all;
}
