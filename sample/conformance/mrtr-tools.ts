// The MRTR fixtures of the conformance suite (SEP-2322), keys and messages as the scenarios name them.
//
// Declarative (@Elicit) wherever the question is a fixed form: the dispatcher asks, carries the
// answers in sealed requestState, re-asks on a missing or wrong key, and refuses tampered state.
// Imperative where @Elicit cannot say it: sampling and roots (not elicitation), a question set
// that depends on the request's capabilities, and state the handler itself must insist on.
import "reflect-metadata";
import { IsBoolean, IsString } from "class-validator";
import { inject, injectable } from "tsyringe";
import {
  Ctx,
  Elicit,
  Elicitation,
  ErrorCode,
  McpError,
  Prompt,
  Result,
  Roots,
  Sampling,
  StateSealer,
  Tool,
  isAllowedBy,
  type InputRequest,
  type RequestContext,
} from "roundtrip-mcp";

export class NameAnswer {
  @IsString() name!: string;
}

export class ColorAnswer {
  @IsString() color!: string;
}

export class ConfirmAnswer {
  @IsBoolean() ok!: boolean;
}

export class ContextAnswer {
  @IsString() context!: string;
}

/** The fixtures @Elicit expresses: one question, two ordered questions, a prompt. */
export class DeclarativeMrtr {
  /**
   * Basic elicitation. Also the tool of missing-input-response (a wrong key is re-asked),
   * ignore-extra-params (unknown keys are ignored, no state needed: the answer is to the question
   * that would be asked now) and validate-input (`{user_name: 12345}` and `null` are -32602).
   */
  @Tool({ description: "Asks the user's name (MRTR elicitation), then greets them" })
  test_input_required_result_elicitation(@Elicit("user_name", NameAnswer, { message: "What is your name?" }) user: NameAnswer) {
    return `Hello, ${user.name}!`;
  }

  /** Three rounds: step2 is asked only once step1 is answered; the sealed state changes every round. */
  @Tool({ description: "Asks two questions in two rounds, carrying the first answer in requestState" })
  test_input_required_result_multi_round(
    @Elicit("step1", NameAnswer, { message: "Step 1: What is your name?" }) step1: NameAnswer,
    @Elicit("step2", ColorAnswer, { message: "Step 2: What is your favorite color?", after: ["step1"] }) step2: ColorAnswer,
  ) {
    return `${step1.name} likes ${step2.color}.`;
  }

  /** Sealed state: a tampered requestState is refused with -32602 before any question is looked at. */
  @Tool({ description: "Asks for confirmation with integrity-protected requestState" })
  test_input_required_result_tampered_state(@Elicit("confirm", ConfirmAnswer, { message: "Please confirm" }) confirm: ConfirmAnswer) {
    return `Confirmed: ${confirm.ok}`;
  }

  /** input_required is not only for tools: the same flow on prompts/get. */
  @Prompt({ description: "Asks which context to use, then renders a prompt with it" })
  test_input_required_result_prompt(
    @Elicit("user_context", ContextAnswer, { message: "What context should the prompt use?" }) answer: ContextAnswer,
  ) {
    return `Use this context: ${answer.context}`;
  }
}

/** What test_input_required_result_request_state seals: the question it is waiting for. */
interface ConfirmState {
  awaiting: "confirm";
}

/** What test_input_required_result_multiple_inputs carries between rounds: the answers so far. */
interface GatheredState {
  name?: string;
  greeting?: string;
  roots?: string[];
}

const ASK_NAME = Elicitation.form("What is your name?", NameAnswer);
const ASK_CONFIRM = Elicitation.form("Please confirm", ConfirmAnswer);
const ASK_CAPITAL = Sampling.createMessage({
  messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
  maxTokens: 100,
});
const ASK_GREETING = Sampling.createMessage({
  messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
  maxTokens: 50,
});
const ASK_ROOTS = Roots.list();

function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => (b && typeof b === "object" && (b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text) : ""))
    .join("");
}

/** The fixtures written with the imperative API. */
@injectable()
export class HandwrittenMrtr {
  constructor(@inject(StateSealer) private readonly sealer: StateSealer) {}

  @Tool({ description: "Asks the client's model a question (MRTR sampling)" })
  test_input_required_result_sampling(@Ctx() ctx: RequestContext) {
    const answer = Sampling.response(ctx, "capital_question", ASK_CAPITAL);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { capital_question: ASK_CAPITAL } });
    return `Sampling response: ${sampledText(answer.result.content)}`;
  }

  @Tool({ description: "Asks the client for its roots (MRTR roots/list)" })
  test_input_required_result_list_roots(@Ctx() ctx: RequestContext) {
    const answer = Roots.response(ctx, "client_roots", ASK_ROOTS);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { client_roots: ASK_ROOTS } });
    const roots = answer.result.roots.map((r) => r.uri);
    return `Client roots (${roots.length}): ${roots.join(", ")}`;
  }

  /**
   * Insists on its own sealed state: the answer counts only together with the state handed out
   * in round 1 (opened and checked here; a forged or foreign one is -32602).
   */
  @Tool({ description: "Asks for confirmation and completes only with the requestState it handed out" })
  test_input_required_result_request_state(@Ctx() ctx: RequestContext) {
    const ask = () =>
      Result.inputRequired({
        inputRequests: { confirm: ASK_CONFIRM },
        requestState: this.sealer.seal({ awaiting: "confirm" } satisfies ConfirmState, ctx, { principal: ctx.principal }),
      });
    if (ctx.requestState === undefined) return ask();
    const state = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as unknown as ConfirmState;
    if (state?.awaiting !== "confirm") throw new McpError(ErrorCode.InvalidParams, "Invalid or expired request state");
    const answer = Elicitation.response(ctx, "confirm", ASK_CONFIRM);
    if (answer.status === "missing") return ask();
    if (answer.action !== "accept") return Result.error(`Confirmation not given (${answer.action})`);
    return `state-ok: requestState verified, confirmed=${answer.content.ok}`;
  }

  /**
   * Elicitation, sampling and roots in one round. Answers may arrive over several rounds: those
   * received so far travel in sealed state, and only what is still missing is asked again.
   */
  @Tool({ description: "Asks for a name, a sampled greeting and the client's roots at once" })
  test_input_required_result_multiple_inputs(@Ctx() ctx: RequestContext) {
    const gathered: GatheredState =
      ctx.requestState === undefined ? {} : { ...(this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as GatheredState) };
    if (gathered.name === undefined) {
      const name = Elicitation.response(ctx, "user_name", ASK_NAME);
      if (name.status === "answered") {
        if (name.action !== "accept") return Result.error(`The name question was not answered (${name.action})`);
        gathered.name = String(name.content.name);
      }
    }
    if (gathered.greeting === undefined) {
      const greeting = Sampling.response(ctx, "greeting", ASK_GREETING);
      if (greeting.status === "answered") gathered.greeting = sampledText(greeting.result.content);
    }
    if (gathered.roots === undefined) {
      const roots = Roots.response(ctx, "client_roots", ASK_ROOTS);
      if (roots.status === "answered") gathered.roots = roots.result.roots.map((r) => r.uri);
    }
    const missing: Record<string, InputRequest> = {
      ...(gathered.name === undefined && { user_name: ASK_NAME }),
      ...(gathered.greeting === undefined && { greeting: ASK_GREETING }),
      ...(gathered.roots === undefined && { client_roots: ASK_ROOTS }),
    };
    if (Object.keys(missing).length > 0) {
      return Result.inputRequired({
        inputRequests: missing,
        requestState: this.sealer.seal({ ...gathered }, ctx, { principal: ctx.principal }),
      });
    }
    return `${gathered.greeting} ${gathered.name}! Roots: ${gathered.roots!.join(", ") || "(none)"}`;
  }

  /**
   * Asks only for what this request's capabilities allow: a sampling-only client gets only the
   * sampling request. A client that allows neither kind gets -32021 naming elicitation (from the
   * dispatcher's admission check, which refuses the request it cannot send).
   */
  @Tool({ description: "Asks only for the kinds of input the client declared" })
  test_input_required_result_capabilities(@Ctx() ctx: RequestContext) {
    const wanted: Record<string, InputRequest> = { user_name: ASK_NAME, capital_question: ASK_CAPITAL };
    const allowed = Object.entries(wanted).filter(([, request]) => isAllowedBy(request, ctx.clientCapabilities));
    if (allowed.length === 0) return Result.inputRequired({ inputRequests: { user_name: ASK_NAME } });
    const parts: string[] = [];
    const missing: Record<string, InputRequest> = {};
    for (const [key, request] of allowed) {
      if (request === ASK_NAME) {
        const answer = Elicitation.response(ctx, key, ASK_NAME);
        if (answer.status === "missing") missing[key] = request;
        else parts.push(answer.action === "accept" ? `name=${answer.content.name}` : `name ${answer.action}`);
      } else {
        const answer = Sampling.response(ctx, key, ASK_CAPITAL);
        if (answer.status === "missing") missing[key] = request;
        else parts.push(`capital=${sampledText(answer.result.content)}`);
      }
    }
    if (Object.keys(missing).length > 0) return Result.inputRequired({ inputRequests: missing });
    return `Used only declared capabilities: ${parts.join("; ")}`;
  }
}
