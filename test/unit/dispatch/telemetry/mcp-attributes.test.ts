// Pins how a request's session appears in its span: `mcp.session.id` is a digest of the
// `Mcp-Session-Id` (22 base64url characters of its SHA-256), never the id itself, which a client
// presents to act in its session; a request outside a session has no such attribute.
import { createHash } from "node:crypto";
import { requestAttributes, sessionDigest } from "../../../../src/dispatch/telemetry/mcp-attributes";
import type { InboundRequest } from "../../../../src/protocol/inbound-request";

function request(extra: Partial<InboundRequest> = {}): InboundRequest {
  return { method: "tools/list", params: {}, principal: null, clientCapabilities: {}, ...extra } as InboundRequest;
}

describe("mcp.session.id", () => {
  it("is the digest of the session id, never the id", () => {
    const id = "rt3.session-id-sealed-with-the-key-ring";
    const { attributes } = requestAttributes(request({ sessionId: id }), false);
    const expected = createHash("sha256").update(id).digest("base64url").slice(0, 22);
    expect(attributes["mcp.session.id"]).toBe(expected);
    expect(sessionDigest(id)).toBe(expected);
    expect(JSON.stringify(attributes)).not.toContain(id);
  });

  it("is absent outside a session", () => {
    expect(requestAttributes(request(), false).attributes).not.toHaveProperty("mcp.session.id");
  });
});
