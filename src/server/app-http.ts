/*
 * The HTTP wing of McpApp: what only `listen()`, `httpHandler()`, `nodeHandler()` and
 * `healthHandler()` need (the listener, the answerer, the 2025 sessions, OAuth, health). McpApp
 * reaches it through `httpWing()` (app-lazy.ts), so a stdio server does not load it before its
 * first answer (issue 24). Nothing here is imported by the stdio path.
 */
import type { AuthOptions } from "../auth/bearer-auth";
import type { FeatureTable } from "../features/feature-table";
import type { AppLogger } from "../protocol/app-logger";
import type { StateSealer } from "../state/state-sealer";
import type { MessageBus } from "../stores/message-bus";
import { MemorySessionState } from "../stores/memory-session-state";
import { sessionStateOf } from "../stores/session-state";
import { bridgeOptions, type AppSdkParts } from "./app-sdk-servers";
import { HttpAuth } from "./http/http-auth";
import { LegacySessions } from "./http/sessions/legacy-sessions";
import type { ResolvedSessionOptions } from "./http/sessions/session-options";
import { sessionCapabilities, servesSessionSettings } from "./http/sessions/session-server";
import { buildSdkServer, type FactsLookup } from "./sdk-bridge";

export { HttpAnswerer } from "./http/http-answerer";
export { httpEntry } from "./http/http-entry";
export { HttpAuth } from "./http/http-auth";
export { startHttpListener } from "./http/http-listener";
export { appHealthEndpoints, withHealthRoutes } from "./app-health";
export { NodeMount } from "./http/node-mount";
export { listenRoutes, serverCardHandler } from "./app-card";

/**
 * The 2025-11-25 sessions of an app, shared by all its HTTP entries: each session an SDK `Server`
 * of the 2025 era, its rounds run by the sessions, its settings shared. What the instances share
 * is the bus's (the PostgreSQL bus's tables, or a memory bus's for the apps of one process); a bus
 * that offers none leaves each instance its own (a stream then resumes on its instance only).
 */
export function appLegacySessions(
  parts: AppSdkParts,
  deps: { readonly sealer: StateSealer; readonly logger: AppLogger; readonly bus: MessageBus; readonly options: ResolvedSessionOptions },
  facts: FactsLookup,
): LegacySessions {
  const capabilities = sessionCapabilities(parts.capabilities.legacy);
  const shared = sessionStateOf(deps.bus);
  if (shared === undefined)
    deps.logger.warn(
      "2025 sessions: the message bus shares no session state; a 2025 client's stream resumes only on the instance that holds it (use the PostgreSQL bus to resume anywhere)",
    );
  return new LegacySessions({
    ...deps,
    state: shared ?? new MemorySessionState(false),
    makeServer: ({ settings, rounds }) =>
      servesSessionSettings(
        buildSdkServer({
          ...bridgeOptions(parts, "legacy", facts),
          capabilities,
          legacyRounds: rounds,
          sessionLevel: () => settings.level,
        }),
        settings,
      ),
  });
}

/** A mounted entry's OAuth: the bearer check for the canonical resource `auth` names (required: a mount does not know its URL). */
export function mountAuth(
  auth: AuthOptions,
  features: FeatureTable,
  logger: AppLogger,
  entry: string,
): { readonly http: HttpAuth; readonly resource: string } {
  if (auth.resource === undefined)
    throw new TypeError(`${entry}: auth.resource is required (the canonical URI clients reach this handler at)`);
  const http = new HttpAuth(auth, features, logger);
  return { http, resource: http.resource(auth.resource) };
}
