import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { IsBoolean, IsIn, IsInt, Max, Min } from "class-validator";
import { Arg, Ctx, Elicit, Elicitation, Result, Tool, type TaskContext } from "roundtrip-mcp";

export class ExportRequest {
  @IsInt() @Min(1) @Max(100_000) orders!: number;
}

export class ExportFormat {
  @IsIn(["csv", "json"]) format!: string;
}

export class LargeExport {
  @IsBoolean() proceed!: boolean;
}

/** Stands in for an object store: a file written again under the same key replaces the first. */
export const uploads = new Map<string, { file: string; rows: number }>();

export class OrderExports {
  @Tool({
    description: "Exports orders to a file, batch by batch",
    task: { support: "required", retryPolicy: "rerun", maxAttempts: 3, ttlMs: 24 * 60 * 60 * 1000, pollIntervalMs: 2000 },
  })
  async export_orders(
    @Arg() request: ExportRequest,
    // Asked before the task exists, by ordinary input_required rounds.
    @Elicit("format", ExportFormat, { message: "Which file format?" }) format: ExportFormat,
    @Ctx() ctx: TaskContext,
  ) {
    if (request.orders > 10_000) {
      // Asked through the task: tasks/get shows it, tasks/update answers it.
      const question = Elicitation.form(`Export all ${request.orders} orders? It takes a while.`, LargeExport);
      const answer = Elicitation.response(await ctx.ask({ large_export: question }), "large_export", question);
      if (answer.status !== "answered" || answer.action !== "accept" || answer.content.proceed !== true) return Result.error("Export not confirmed");
    }
    const batches = Math.ceil(request.orders / 1000);
    for (let batch = 1; batch <= batches; batch++) {
      await ctx.progress.report(batch - 1, batches, `Exporting batch ${batch} of ${batches}`);
      await sleep(10, undefined, { signal: ctx.signal }); // reading a batch; stops at once when cancelled
    }
    // The same key on every attempt: a re-run after a crash replaces the file instead of adding one.
    const file = `orders-${ctx.idempotencyKey}.${format.format}`;
    uploads.set(ctx.idempotencyKey, { file, rows: request.orders });
    return Result.structured({ file, rows: request.orders });
  }
}
