import { StateSealer } from "roundtrip-mcp";

// A ring read from STATE_KEYS, e.g. STATE_KEYS="k1:<base64 of 32 random bytes>"
const sealer = new StateSealer({ keysFromEnv: "STATE_KEYS" });

// What a request context provides (every RequestContext has these fields).
declare const ctx: {
  requestMethod: string;
  requestParams: Record<string, unknown>;
  principal: string | null;
  requestState: string | undefined;
};

// Round 1: carry the answers collected so far.
export const token: string = sealer.seal({ answers: { city: "Lyon" } }, ctx, { principal: ctx.principal });

// Round 2: the client sends the token back as requestState.
export const carried = ctx.requestState === undefined ? null : sealer.open(ctx.requestState, ctx, { principal: ctx.principal });
