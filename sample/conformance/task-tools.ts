// The tasks-extension fixtures of the conformance suite (SEP-2663), named and shaped as its
// tasks-* scenarios describe them: greet never becomes a task; slow_compute, protocol_error_job,
// confirm_delete and multi_input may (the client decides by declaring the extension);
// failing_job and test_tool_with_task must.
import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { IsBoolean, IsNumber, IsOptional, IsString, Max, Min } from "class-validator";
import { Arg, Ctx, Elicit, Elicitation, ErrorCode, McpError, Result, Tool, type TaskContext } from "roundtrip-mcp";
import { NameAnswer } from "./mrtr-tools";

export class GreetArgs {
  @IsString() name!: string;
}

export class ComputeArgs {
  @IsNumber() @Min(0) @Max(3600) seconds!: number;
  @IsOptional() @IsString() label?: string;
}

export class DeleteArgs {
  @IsString() filename!: string;
}

export class ConfirmAnswer {
  @IsBoolean() confirm!: boolean;
}

const ASK_NAME = Elicitation.form("What name should the job use?", NameAnswer);
const ASK_CONFIRM = Elicitation.form("Go ahead?", ConfirmAnswer);

export class TaskFixtures {
  @Tool({ description: "Greets at once; never a task" })
  greet(@Arg() args: GreetArgs) {
    return `Hello, ${args.name}!`;
  }

  /** Sleeps, then answers; stops as soon as the task is cancelled (it settles `cancelled`). */
  @Tool({ description: "Computes for `seconds` seconds, as a task when the client supports them", task: "optional" })
  async slow_compute(@Arg() args: ComputeArgs, @Ctx() ctx: TaskContext) {
    await ctx.setStatus(`Computing ${args.label ?? "a result"}`);
    await sleep(args.seconds * 1000, undefined, { signal: ctx.signal });
    return `Computed ${args.label ?? "a result"} in ${args.seconds} s`;
  }

  /** A tool error (`isError: true`): the task ends `completed`, the error inlined in its result. */
  @Tool({ description: "Runs for about a second, then reports a tool error; only as a task", task: "required" })
  async failing_job(@Ctx() ctx: TaskContext) {
    await sleep(1000, undefined, { signal: ctx.signal });
    return Result.error("The job failed: the input could not be processed");
  }

  /** A protocol error: the task ends `failed`, with the error inlined and no result. */
  @Tool({ description: "Fails with a protocol error", task: "optional" })
  protocol_error_job() {
    throw new McpError(ErrorCode.InternalError, "The job hit an internal error");
  }

  /** Asks one question mid-task and completes once it is answered. */
  @Tool({ description: "Deletes a file after the user confirms, asked through the task", task: "optional" })
  async confirm_delete(@Arg() args: DeleteArgs, @Ctx() ctx: TaskContext) {
    const ask = Elicitation.form(`Delete ${args.filename}?`, ConfirmAnswer);
    const answer = Elicitation.response(await ctx.ask({ confirm: ask }), "confirm", ask);
    if (answer.status !== "answered" || answer.action !== "accept") return `Kept ${args.filename}`;
    return answer.content.confirm ? `Deleted ${args.filename}` : `Kept ${args.filename}`;
  }

  /** Two questions at once: they may be answered one `tasks/update` at a time. */
  @Tool({ description: "Asks two questions at once through the task", task: "optional" })
  async multi_input(@Ctx() ctx: TaskContext) {
    const answers = await ctx.ask({ name: ASK_NAME, confirm: ASK_CONFIRM });
    const name = Elicitation.response(answers, "name", ASK_NAME);
    const confirm = Elicitation.response(answers, "confirm", ASK_CONFIRM);
    const who = name.status === "answered" && name.action === "accept" ? name.content.name : "nobody";
    const go = confirm.status === "answered" && confirm.action === "accept" && confirm.content.confirm === true;
    return `${go ? "Confirmed" : "Not confirmed"} for ${who}`;
  }

  /** MRTR first (the name, by an ordinary input_required round), then a task that uses it. */
  @Tool({ description: "Asks a name by MRTR, then runs as a task", task: "required" })
  async test_tool_with_task(@Elicit("user_name", NameAnswer, { message: "What is your name?" }) user: NameAnswer) {
    return `Hello, ${user.name}! Your task is done.`;
  }
}
