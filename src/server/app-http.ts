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
import { bridgeOptions, type AppSdkParts } from "./app-sdk-servers";
import { HttpAuth } from "./http/http-auth";
import { LegacySessions } from "./http/sessions/legacy-sessions";
import type { ResolvedSessionOptions } from "./http/sessions/session-options";
import { sessionCapabilities, servesSubscriptions } from "./http/sessions/session-server";
import { buildSdkServer, type FactsLookup } from "./sdk-bridge";

export { HttpAnswerer } from "./http/http-answerer";
export { httpEntry } from "./http/http-entry";
export { HttpAuth } from "./http/http-auth";
export { startHttpListener } from "./http/http-listener";
export { appHealthEndpoints, withHealthRoutes } from "./app-health";
export { NodeMount } from "./http/node-mount";
export { listenRoutes, serverCardHandler } from "./app-card";

/** The 2025-11-25 sessions of an app, shared by all its HTTP entries: each session an SDK `Server` of the 2025 era. */
export function appLegacySessions(
  parts: AppSdkParts,
  deps: { readonly sealer: StateSealer; readonly logger: AppLogger; readonly bus: MessageBus; readonly options: ResolvedSessionOptions },
  facts: FactsLookup,
): LegacySessions {
  const capabilities = sessionCapabilities(parts.capabilities.legacy);
  return new LegacySessions({
    ...deps,
    makeServer: ({ subscriptions }) =>
      servesSubscriptions(
        buildSdkServer({
          ...bridgeOptions(parts, "legacy", facts),
          capabilities,
          // The session's own timer (RelayTransport) ends the wait first, with a message naming the option.
          answerTimeoutMs: deps.options.answerTimeoutMs * 2 + 1_000,
        }),
        subscriptions,
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
