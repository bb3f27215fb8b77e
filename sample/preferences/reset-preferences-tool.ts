// A state-only continuation, written with the imperative API: the first round answers
// input_required with a sealed requestState and no questions; the retry opens it and completes.
// Nothing is stored anywhere, so the "reset" changes nothing and the old state is simply dropped.
import { inject, injectable } from "tsyringe";
import { Scopes, Ctx, Result, StateSealer, Tool, type InputRequiredResult, type RequestContext, type ToolResult } from "roundtrip-mcp";

interface ResetCheckpoint {
  step: "reset";
}

@injectable()
// Over OAuth (npm run start:secured) a caller needs preferences:admin; stdio and plain HTTP are not restricted.
@Scopes("preferences:admin")
export class ResetPreferencesTool {
  constructor(@inject(StateSealer) private readonly sealer: StateSealer) {}

  @Tool({
    description: "Resets preferences in two steps (a state-only continuation); stores and changes nothing",
    annotations: { readOnlyHint: true, idempotentHint: true },
  })
  reset_preferences(@Ctx() ctx: RequestContext): ToolResult | InputRequiredResult {
    if (ctx.requestState === undefined) {
      const checkpoint: ResetCheckpoint = { step: "reset" };
      return Result.inputRequired({ requestState: this.sealer.seal({ ...checkpoint }, ctx, { principal: ctx.principal }) });
    }
    // Throws the generic -32602 for a tampered, expired or foreign state.
    const checkpoint = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as unknown as ResetCheckpoint;
    return Result.structured(
      { reset: true, checkpoint: checkpoint.step, stateDiscarded: true },
      `Preferences reset: nothing was stored, so nothing changed. Checkpoint "${checkpoint.step}" opened and dropped; no state is carried further.`,
    );
  }
}
