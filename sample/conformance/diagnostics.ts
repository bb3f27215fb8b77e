// The stateless diagnostics of server-stateless (SEP-2575): a tool that needs a capability the
// caller may not have declared, an elicitation on a response stream, logging that stays silent
// without a requested level, and hooks that announce list changes to subscriptions/listen streams.
import "reflect-metadata";
import { IsString } from "class-validator";
import { injectable } from "tsyringe";
import { ChangeNotifier, Ctx, Elicit, Result, Sampling, Tool, type RequestContext } from "roundtrip-mcp";

const ASK_SUMMARY = Sampling.createMessage({
  messages: [{ role: "user", content: { type: "text", text: "Summarise the conformance run in one sentence." } }],
  maxTokens: 60,
});

export class Acknowledgement {
  @IsString() note!: string;
}

@injectable()
export class Diagnostics {
  constructor(private readonly changes: ChangeNotifier) {}

  /**
   * Cannot work without sampling. Called without it, the dispatcher's admission check answers
   * -32021 with `data.requiredCapabilities: { sampling: {} }` (HTTP 400): the tool never has to
   * test the capability itself.
   */
  @Tool({ description: "Needs the client's sampling capability" })
  test_missing_capability(@Ctx() ctx: RequestContext) {
    const answer = Sampling.response(ctx, "summary", ASK_SUMMARY);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { summary: ASK_SUMMARY } });
    return `Sampled with the declared capability (model ${answer.result.model})`;
  }

  /** The response stream of this call carries only the interim result: never a server-to-client request. */
  @Tool({ description: "Asks a question through MRTR; the answer never travels as a server request" })
  test_streaming_elicitation(@Elicit("acknowledgement", Acknowledgement, { message: "Anything to note?" }) ack: Acknowledgement) {
    return `Noted: ${ack.note}`;
  }

  /** Logs at info; the messages reach the client only when the request's _meta asked for a log level. */
  @Tool({ description: "Logs three messages (sent only when the request sets a log level)" })
  async test_logging_tool(@Ctx() ctx: RequestContext) {
    await ctx.log.log("info", "Tool execution started");
    await ctx.log.log("info", "Tool processing data");
    await ctx.log.log("info", "Tool execution completed");
    return `Logging level of this request: ${ctx.log.level ?? "none (nothing sent)"}`;
  }

  @Tool({ description: "Announces a tool list change to open subscriptions/listen streams" })
  test_trigger_tool_change() {
    this.changes.toolsChanged();
    return "Tool list change announced";
  }

  @Tool({ description: "Announces a prompt list change to open subscriptions/listen streams" })
  test_trigger_prompt_change() {
    this.changes.promptsChanged();
    return "Prompt list change announced";
  }
}
