import { StateSealer } from "roundtrip-mcp";

let clockMs = Date.UTC(2026, 6, 28);
const sealer = new StateSealer({ secret: "test-only-secret-of-at-least-32-bytes!!", ttl: 120, now: () => clockMs });
const ctx = { requestMethod: "tools/call", requestParams: { name: "book", arguments: {} } };

const token = sealer.seal({ step: 1 }, ctx, { principal: null });
clockMs += 119_000;
sealer.open(token, ctx, { principal: null }); // opens
clockMs += 1_000;
// sealer.open(token, ctx, { principal: null }) now throws: expired
