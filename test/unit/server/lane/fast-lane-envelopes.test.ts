/*
 * Pins the fast lane's verdict on a request's `_meta` envelope, which it keeps per distinct
 * envelope (the last ones seen are compared, not encoded):
 * - every admission agrees with the SDK's own classifier on that envelope, whatever was admitted
 *   before it (an envelope equal to a cached one but for one value gets its own verdict);
 * - the same envelope with its keys in another order has the same verdict;
 * - a cached envelope is a copy: changing the request's objects after the request does not
 *   change the verdict on the next request that carries the changed envelope.
 */
import "reflect-metadata";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { container } from "tsyringe";
import { Dispatcher } from "../../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../../src/features/built-in-features";
import { FeatureTable } from "../../../../src/features/feature-table";
import { StateSealer, Tool, type JsonObject } from "../../../../src/index";
import { InboundChecks } from "../../../../src/server/checks/inbound-checks";
import { resolveRequestLimits } from "../../../../src/server/checks/request-limits";
import { FastLane } from "../../../../src/server/lane/fast-lane";
import { MemoryLogger } from "../../../../src/testing/index";

const VERSION = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

class Probe {
  @Tool()
  look() {
    return "ok";
  }
}

function lane(): FastLane {
  const child = container.createChildContainer();
  child.registerSingleton(Probe);
  const features = new FeatureTable(BUILT_IN_FEATURES, { components: [Probe], logger: new MemoryLogger() });
  const dispatcher = new Dispatcher({
    features,
    container: child,
    sealer: new StateSealer({ secret: "e".repeat(40) }, new MemoryLogger()),
    logger: new MemoryLogger(),
  });
  return new FastLane({
    dispatcher,
    checks: new InboundChecks(features, resolveRequestLimits({})),
    serverInfo: { name: "probe", version: "1.0.0" },
    capabilities: { tools: {} },
  });
}

const call = (meta: JsonObject) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "look", arguments: {}, _meta: meta } });

/** The SDK's verdict on `meta` as a 2026-07-28 envelope, as the lane asks it. */
function sdkAccepts(meta: JsonObject): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: "POST",
    protocolVersionHeader: "2026-07-28",
    mcpMethodHeader: "tools/list",
    body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } },
  } as never) as { kind: string };
  return outcome.kind === "modern";
}

const envelope = (capabilities: unknown, extra: JsonObject = {}): JsonObject => ({
  [VERSION]: "2026-07-28",
  [CAPABILITIES]: capabilities,
  ...extra,
});

describe("the fast lane's envelope verdicts", () => {
  it("agree with the SDK's classifier on every envelope, in any order of requests", () => {
    const metas = [
      envelope({ elicitation: {} }),
      envelope({ elicitation: "yes" }),
      envelope({ elicitation: {} }),
      envelope({ sampling: {} }),
      envelope({ sampling: [] }),
      envelope({ elicitation: { form: {} } }),
      envelope({ elicitation: { form: 1 } }),
      envelope({ elicitation: {} }, { "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } }),
      envelope({ elicitation: {} }, { "io.modelcontextprotocol/clientInfo": { name: 3 } }),
      envelope({ elicitation: "yes" }),
    ];
    const verdicts = metas.map(sdkAccepts);
    // Both verdicts occur, so an answer cached for the wrong envelope would show.
    expect(new Set(verdicts).size).toBe(2);
    const probe = lane();
    for (let round = 0; round < 2; round++)
      metas.forEach((meta, i) => expect(probe.admit(call(structuredClone(meta))) !== undefined).toBe(verdicts[i]));
  });

  it("give an envelope with its keys in another order the same verdict", () => {
    const probe = lane();
    const meta = envelope({ elicitation: {}, sampling: {} });
    const reordered = { [CAPABILITIES]: { sampling: {}, elicitation: {} }, [VERSION]: "2026-07-28" };
    expect(probe.admit(call(meta))).toBeDefined();
    expect(probe.admit(call(reordered))).toBeDefined();
  });

  it("keep a copy of an envelope, not the request's own objects", () => {
    const probe = lane();
    const meta = envelope({ elicitation: {} });
    expect(probe.admit(call(meta))).toBeDefined();
    // The caller changes its objects after the request, then sends them again.
    (meta[CAPABILITIES] as JsonObject).elicitation = "yes";
    expect(sdkAccepts(meta)).toBe(false);
    expect(probe.admit(call(meta))).toBeUndefined();
  });
});
