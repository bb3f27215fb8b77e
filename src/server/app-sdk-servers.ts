import type { Dispatcher } from "../dispatch/dispatcher";
import type { Era } from "../protocol/inbound-request";
import type { InboundChecks } from "./checks/inbound-checks";
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

export function bridgeOptions(parts: AppSdkParts, era: Era, facts: FactsLookup): BridgeOptions {
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
