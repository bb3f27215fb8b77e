// The fixtures the 2025-11-25 requirement set calls by name (tools-call-elicitation,
// tools-call-sampling, tools-call-with-logging, SEP-1034 defaults, SEP-1330 enums). A 2025 client
// answers them in its session: each question travels as a real server-to-client request on the
// call's SSE stream (the framework's 2025 sessions), written as ordinary input_required rounds.
import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, Ctx, Elicitation, Result, Sampling, Tool, type FormSchema, type RequestContext } from "roundtrip-mcp";

class MessageArgs {
  @IsString() message!: string;
}

class PromptArgs {
  @IsString() prompt!: string;
}

const CONTACT_SCHEMA: FormSchema = {
  type: "object",
  properties: {
    username: { type: "string", description: "User's response" },
    email: { type: "string", description: "User's email address" },
  },
  required: ["username", "email"],
};

const DEFAULTS_REQUEST = Elicitation.form("Please review and update the form fields with defaults", {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
});

// Written out as the wire shape, and returned as a wire result (not through Result.inputRequired,
// which checks every question against the framework's form subset): the subset refuses the
// deprecated `enumNames` variant, and SEP-1330 asks for all five variants, that one included.
const ENUMS_REQUEST = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Choose from each kind of enum",
    requestedSchema: {
      type: "object",
      properties: {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: {
          type: "array",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
      required: [],
    },
  },
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long test_reconnection takes: well past the fixture's `POLL_AFTER_MS`. */
const RECONNECTION_MS = 600;
/** The fixture's `sessions.pollAfterMs`: a 2025 call's stream still open after it is closed, and resumed by the client. */
export const POLL_AFTER_MS = 200;

interface Answer {
  action: string;
  content?: unknown;
}

/** This round's answer to `key` as the client sent it (any shape of form), or undefined when there is none. */
function describeAnswer(ctx: RequestContext, key: string): Answer | undefined {
  const entry = ctx.inputResponses?.[key] as Answer | undefined;
  return typeof entry === "object" && entry !== null && typeof entry.action === "string" ? entry : undefined;
}

/** The 2025-era fixtures, written with the imperative API. */
export class LegacyFixtures {
  @Tool({ description: "Asks the user for a username and an email (elicitation/create)" })
  test_elicitation(@Arg() args: MessageArgs, @Ctx() ctx: RequestContext) {
    const request = Elicitation.form(args.message, CONTACT_SCHEMA);
    const answer = describeAnswer(ctx, "contact");
    if (answer === undefined) return Result.inputRequired({ inputRequests: { contact: request } });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ description: "Asks the client's model to answer a prompt (sampling/createMessage)" })
  test_sampling(@Arg() args: PromptArgs, @Ctx() ctx: RequestContext) {
    const request = Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: args.prompt } }], maxTokens: 100 });
    const answer = Sampling.response(ctx, "completion", request);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { completion: request } });
    const content = answer.result.content as { type?: string; text?: string };
    return `LLM response: ${content.type === "text" ? content.text : JSON.stringify(content)}`;
  }

  @Tool({ description: "Sends three log notifications at info, about 50 ms apart" })
  async test_tool_with_logging(@Ctx() ctx: RequestContext) {
    await ctx.log.log("info", "Tool execution started");
    await pause(50);
    await ctx.log.log("info", "Tool processing data");
    await pause(50);
    await ctx.log.log("info", "Tool execution completed");
    return "Tool with logging executed successfully";
  }

  /**
   * Takes longer than the fixture's `sessions.pollAfterMs` (main-http.ts's app), so the server
   * closes its SSE stream mid-call and the client receives the result after it reconnects with
   * `Last-Event-ID` (SEP-1699 polling).
   */
  @Tool({ description: "Answers after its stream was closed mid-call (SSE polling)" })
  async test_reconnection() {
    await pause(RECONNECTION_MS);
    return "Reconnection test completed";
  }

  @Tool({ description: "Asks a form whose fields all have defaults (SEP-1034)" })
  test_elicitation_sep1034_defaults(@Ctx() ctx: RequestContext) {
    const answer = describeAnswer(ctx, "defaults");
    if (answer === undefined) return Result.inputRequired({ inputRequests: { defaults: DEFAULTS_REQUEST } });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ description: "Asks a form with the five enum variants (SEP-1330)" })
  test_elicitation_sep1330_enums(@Ctx() ctx: RequestContext) {
    const answer = describeAnswer(ctx, "enums");
    if (answer === undefined) return { resultType: "input_required", inputRequests: { enums: ENUMS_REQUEST } };
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }
}
