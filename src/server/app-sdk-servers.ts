import type { Dispatcher } from "../dispatch/dispatcher";
import type { Era } from "../protocol/inbound-request";
import type { AppLogger } from "../protocol/app-logger";
import type { StateSealer } from "../state/state-sealer";
import type { MessageBus } from "../stores/message-bus";
import type { InboundChecks } from "./checks/inbound-checks";
import { LegacySessions } from "./http/sessions/legacy-sessions";
import type { ResolvedSessionOptions } from "./http/sessions/session-options";
import { sessionCapabilities, servesSubscriptions } from "./http/sessions/session-server";
import { buildSdkServer, type BridgeOptions, type capabilitiesFor, type FactsLookup } from "./sdk-bridge";

/** What every SDK `Server` of one app is built from, whatever entry serves it. */
export interface AppSdkParts {
  readonly serverInfo: BridgeOptions["serverInfo"];
  readonly instructions: string | undefined;
  /** Advertised per era, computed once per app. */
  readonly capabilities: Record<Era, ReturnType<typeof capabilitiesFor>>;
  readonly dispatcher: Dispatcher;
  readonly checks: InboundChecks;
  readonly onerror: (error: Error) => void;
}

function bridgeOptions(parts: AppSdkParts, era: Era, facts: FactsLookup): BridgeOptions {
  return {
    serverInfo: parts.serverInfo,
    ...(parts.instructions !== undefined && { instructions: parts.instructions }),
    era,
    capabilities: parts.capabilities[era],
    dispatcher: parts.dispatcher,
    facts,
    checkParams: (method, params) => parts.checks.params(method, params),
    onerror: parts.onerror,
  };
}

/** The SDK server factory of one serving entry: one SDK `Server` per era, built from the feature table. */
export function sdkServerFactory(parts: AppSdkParts, facts: FactsLookup): (opening: { era: Era }) => ReturnType<typeof buildSdkServer> {
  return ({ era }) => buildSdkServer(bridgeOptions(parts, era, facts));
}

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
