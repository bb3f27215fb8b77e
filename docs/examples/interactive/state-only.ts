import "reflect-metadata";
import { inject, injectable } from "tsyringe";
import { Ctx, Result, StateSealer, Tool, type RequestContext } from "roundtrip-mcp";

@injectable()
export class Maintenance {
  constructor(@inject(StateSealer) private readonly sealer: StateSealer) {}

  /** Round 1 hands out sealed state only (a checkpoint); the client retries at once with it. */
  @Tool({ description: "Rebuilds an index in two steps" })
  rebuild(@Ctx() ctx: RequestContext) {
    if (ctx.requestState === undefined) {
      const checkpoint = this.sealer.seal({ phase: "scanned", files: 42 }, ctx, { principal: ctx.principal });
      return Result.inputRequired({ requestState: checkpoint });
    }
    const state = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as { phase: string; files: number };
    return `Rebuilt after ${state.phase} (${state.files} files).`;
  }
}
