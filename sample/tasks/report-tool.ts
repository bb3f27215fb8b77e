// A long-running tool written as a task: it builds a report in steps, reporting progress as it
// goes, asks the user one question mid-task (through the task: tasks/get shows it, tasks/update
// answers it), and stops as soon as the task is cancelled. Re-run after a crash ("rerun"): the
// answer already given is kept, and ctx.idempotencyKey names the report on every attempt.
import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from "class-validator";
import { Arg, Ctx, Elicitation, JSONSchema, Result, Tool, type TaskContext } from "roundtrip-mcp";

export class ReportRequest {
  @IsString() @MaxLength(80) @JSONSchema({ description: "What the report is about" }) topic!: string;
  @IsOptional() @IsInt() @Min(1) @Max(12) @JSONSchema({ description: "How many sections (default 3)" }) sections?: number;
}

export class AppendixChoice {
  @IsBoolean() @JSONSchema({ title: "Include the appendix" }) appendix!: boolean;
}

/** How long one section takes to write (REPORT_STEP_MS, default 300 ms): the work being stood in for. */
const STEP_MS = Number(process.env.REPORT_STEP_MS ?? 300);

export class ReportTools {
  @Tool({
    description: "Builds a report section by section, asks whether to add an appendix, and returns it",
    task: { support: "required", retryPolicy: "rerun", ttlMs: 60 * 60 * 1000, pollIntervalMs: 200 },
  })
  async build_report(@Arg() request: ReportRequest, @Ctx() ctx: TaskContext) {
    const count = request.sections ?? 3;
    const sections: string[] = [];
    for (let i = 1; i <= count; i++) {
      await ctx.progress.report(i - 1, count + 1, `Writing section ${i} of ${count}`);
      // The work itself; it stops at once when the task is cancelled (the signal aborts).
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      sections.push(`${i}. ${request.topic}, part ${i}`);
    }
    const question = Elicitation.form(`The report on ${request.topic} is drafted. Include the appendix?`, AppendixChoice);
    const answers = await ctx.ask({ appendix: question }, { statusMessage: "Waiting for your answer about the appendix" });
    const answer = Elicitation.response(answers, "appendix", question);
    const appendix = answer.status === "answered" && answer.action === "accept" && answer.content.appendix === true;
    await ctx.progress.report(count + 1, count + 1, "Report ready");
    return Result.structured({ report: ctx.idempotencyKey.slice(0, 8), topic: request.topic, sections, appendix });
  }
}
