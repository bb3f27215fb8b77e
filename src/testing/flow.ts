import { AskedInput } from "./asked-input";
import type { Answer, Answers, CallOptions, FlowStatus, RoundSender, RunOptions, Script } from "./flow-options";
import type { Round } from "./channel";
import { mergeOptions } from "./flow-options";
import type { JsonObject } from "../protocol/wire-types";
import type { InputRequiredResult } from "../protocol/input-request";
import type {
  InputResponse,
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcResponse,
  LogMessageParams,
  ProgressParams,
  WireInputRequest,
  WireResult,
} from "./wire-messages";

const DEFAULT_MAX_ROUNDS = 10;

/**
 * One interactive request, round by round: the latest round's status, result, error or input
 * requests, and `answer` to send the next round (a new request with a new id, the original
 * params, the answers and the exact state). Immutable: every round is a new `Flow`, so a test
 * can branch from any round.
 *
 * JSON-RPC errors are a status, never a rejection: `flow.status === "error"`, `flow.error`.
 * Readers that do not fit the status (`result` on an error, `asked` on a complete flow) throw an
 * Error that says what the flow holds instead.
 *
 * @example const round2 = await round1.answer({ color: accept({ color: "green" }) });
 */
export class Flow<R extends WireResult = WireResult> {
  // Private, with an internal factory: the declarations then show no constructor a user could call.
  private constructor(
    private readonly client: RoundSender,
    /** The method called. */
    readonly method: string,
    /** The original params, without `_meta` and retry fields: re-sent on every round. */
    readonly params: Readonly<JsonObject>,
    private readonly options: CallOptions,
    /** Every round so far, first to latest. */
    readonly history: readonly Round[],
    private readonly stateOverride?: { readonly state: string | undefined },
  ) {}

  /** @internal Use `client.callTool`, `readResource`, `getPrompt` or `request`. */
  static first<R extends WireResult = WireResult>(
    client: RoundSender,
    method: string,
    params: Readonly<JsonObject>,
    options: CallOptions,
    round: Round,
  ): Flow<R> {
    return new Flow<R>(client, method, params, options, [round]);
  }

  /** How many requests this flow has taken so far. */
  get rounds(): number {
    return this.history.length;
  }

  /** The latest round. */
  get round(): Round {
    // Every Flow is made with at least one round (first() and each next round add one).
    return this.history[this.history.length - 1]!;
  }

  /** The latest exact JSON-RPC response. */
  get response(): JsonRpcResponse {
    return this.round.response;
  }

  get status(): FlowStatus {
    const { error, result } = this.response;
    if (error !== undefined) return "error";
    const type = result?.resultType;
    if (type === undefined || type === "complete") return "complete";
    return type === "input_required" ? "input_required" : "other";
  }

  /** The final result; throws unless the flow is complete. */
  get result(): R {
    if (this.status !== "complete") throw this.misuse("result", "complete");
    return this.response.result as R;
  }

  /** The JSON-RPC error (`code`, `message`, `data`); throws unless the flow ended in an error. */
  get error(): JsonRpcErrorObject {
    if (this.status !== "error") throw this.misuse("error", "error");
    return this.response.error!;
  }

  /** The interim result; throws unless the latest round asked for input. */
  get inputRequired(): InputRequiredResult {
    if (this.status !== "input_required") throw this.misuse("inputRequired", "input_required");
    return this.response.result as InputRequiredResult;
  }

  /** This round's input requests by key (`{}` when none). */
  get inputRequests(): Readonly<Record<string, WireInputRequest>> {
    return this.status === "input_required" ? (this.inputRequired.inputRequests ?? {}) : {};
  }

  /** The keys asked this round, in the server's order. */
  get keys(): string[] {
    return Object.keys(this.inputRequests);
  }

  /** Every input request of this round. */
  get inputs(): AskedInput[] {
    return Object.entries(this.inputRequests).map(([key, request]) => new AskedInput(key, request));
  }

  /**
   * The state the next round sends back: the server's `requestState` of this round, or what
   * `withState` set.
   */
  get requestState(): string | undefined {
    if (this.stateOverride) return this.stateOverride.state;
    return this.status === "input_required" ? this.inputRequired.requestState : undefined;
  }

  /**
   * The input request under `key`; throws, naming the keys that were asked, when there is none.
   *
   * @example expect(round1.asked("color").message).toBe("Which colour?");
   */
  asked(key: string): AskedInput {
    const request = this.inputRequests[key];
    if (request === undefined) {
      throw new Error(`asked("${key}"): ${this.status === "input_required" ? `the round asked ${listKeys(this.keys)}` : this.describe()}`);
    }
    return new AskedInput(key, request);
  }

  /** Notifications received during the latest round. */
  get notifications(): readonly JsonRpcNotification[] {
    return this.round.notifications;
  }

  /** `notifications/progress` params received during the latest round. */
  get progress(): ProgressParams[] {
    // as unknown as: received JSON the kit does not check, read as the shape the spec gives these params.
    return this.notificationParams("notifications/progress") as unknown as ProgressParams[];
  }

  /** `notifications/message` params received during the latest round. */
  get logs(): LogMessageParams[] {
    // as unknown as: received JSON the kit does not check, read as the shape the spec gives these params.
    return this.notificationParams("notifications/message") as unknown as LogMessageParams[];
  }

  /**
   * The text of a complete result: a tool's text content blocks, a resource's text contents, or
   * a prompt's text messages, joined by newlines.
   */
  get text(): string {
    const result = this.result as WireResult;
    const pieces: unknown[] = [];
    if (Array.isArray(result.content)) pieces.push(...result.content);
    if (Array.isArray(result.contents)) pieces.push(...result.contents);
    if (Array.isArray(result.messages)) pieces.push(...result.messages.map((m: { content?: unknown }) => m.content));
    return pieces
      .map((piece) => (piece as { text?: unknown }).text)
      .filter((text): text is string => typeof text === "string")
      .join("\n");
  }

  /**
   * Sends the next round: the original params, these answers as `inputResponses`, and the exact
   * state. A function answer receives what was asked under its key.
   *
   * @example const done = await round2.answer({ style: accept({ style: "forest" }) }, { capabilities: {} });
   */
  async answer(answers: Answers, options: CallOptions = {}): Promise<Flow<R>> {
    this.expectInputRequired("answer");
    const inputResponses: Record<string, InputResponse> = {};
    for (const [key, answer] of Object.entries(answers)) {
      if (typeof answer !== "function") {
        inputResponses[key] = answer;
        continue;
      }
      if (this.inputRequests[key] === undefined) {
        throw new Error(`answer: "${key}" was not asked (the round asked ${listKeys(this.keys)}); pass a plain response to send it anyway`);
      }
      inputResponses[key] = await answer(this.asked(key));
    }
    return this.next({ inputResponses }, options);
  }

  /**
   * Sends the next round with no answers, only the state: the continuation of a round that
   * carried `requestState` without `inputRequests`.
   *
   * @example const done = await (await client.callTool("reset", {})).retry();
   */
  async retry(options: CallOptions = {}): Promise<Flow<R>> {
    this.expectInputRequired("retry");
    return this.next({}, options);
  }

  /**
   * Answers every round from `script` until the flow completes or fails; `rounds` of the result
   * counts all requests, these included.
   *
   * @example const done = await round1.run({ color: accept({ color: "red" }), style: (asked) => accept({ style: asked.choices![0] }) });
   */
  async run(script: Script, options: RunOptions = {}): Promise<Flow<R>> {
    const { maxRounds = DEFAULT_MAX_ROUNDS, ...callOptions } = options;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the loop walks from this round to the last
    let flow: Flow<R> = this;
    while (flow.status === "input_required") {
      if (flow.rounds >= maxRounds) {
        throw new Error(
          `run: ${flow.method} still needs input after ${flow.rounds} rounds (maxRounds ${maxRounds}); last round asked ${listKeys(flow.keys)}`,
        );
      }
      if (flow.keys.length === 0) {
        flow = await flow.retry(callOptions);
        continue;
      }
      const answers: Record<string, InputResponse> = {};
      for (const asked of flow.inputs) {
        const answer = typeof script === "function" ? await script(asked) : await resolve(script[asked.key], asked);
        if (answer === undefined) {
          throw new Error(
            `run: round ${flow.rounds} asked "${asked.key}"${asked.message ? ` ("${asked.message}")` : ""} and the script has no answer for it`,
          );
        }
        answers[asked.key] = answer;
      }
      flow = await flow.answer(answers, callOptions);
    }
    return flow;
  }

  /**
   * A copy of this flow whose next round sends `state` instead (undefined: no state at all).
   *
   * @example const refused = await round1.withState(tamper(round1.requestState!)).answer({ color: accept({ color: "red" }) });
   */
  withState(state: string | undefined): Flow<R> {
    return new Flow<R>(this.client, this.method, this.params, this.options, this.history, { state });
  }

  /**
   * A copy of this flow whose next rounds are sent as another principal (`client.as(principal)`).
   *
   * @example expect((await round1.as("mallory").answer({ color: accept({ color: "red" }) })).error.code).toBe(-32602);
   */
  as(principal: string | null): Flow<R> {
    return this.via(this.client.as(principal));
  }

  /** A copy of this flow whose next rounds go through another test client (another server instance, say). */
  via(client: RoundSender): Flow<R> {
    return new Flow<R>(client, this.method, this.params, this.options, this.history, this.stateOverride);
  }

  /** One line on where the flow stands, for messages. */
  describe(): string {
    const where = `${this.method}${typeof this.params.name === "string" ? ` ${this.params.name}` : typeof this.params.uri === "string" ? ` ${this.params.uri}` : ""}, round ${this.rounds}`;
    switch (this.status) {
      case "complete":
        return `${where} is complete${this.response.result?.isError === true ? " (isError)" : ""}`;
      case "input_required":
        return `${where} asked ${listKeys(this.keys)}${this.requestState !== undefined ? " with requestState" : ""}`;
      case "error": {
        const { code, message, data } = this.response.error!;
        const hint = code === -32021 ? "; declare the capabilities with createTestClient(..., { capabilities }) or per call" : "";
        return `${where} failed: ${code} ${JSON.stringify(message)}${data !== undefined ? ` data ${JSON.stringify(data)}` : ""}${hint}`;
      }
      default:
        return `${where} has resultType ${JSON.stringify(this.response.result?.resultType)}`;
    }
  }

  private async next(retryFields: { inputResponses?: Record<string, InputResponse> }, options: CallOptions): Promise<Flow<R>> {
    const merged = mergeOptions(this.options, options);
    const state = this.requestState;
    const params: JsonObject = {
      ...this.params,
      _meta: this.client.meta(merged),
      ...retryFields,
      ...(state !== undefined && { requestState: state }),
    };
    const round = await this.client.exchange(this.method, params, merged);
    return new Flow<R>(this.client, this.method, this.params, this.options, [...this.history, round]);
  }

  private expectInputRequired(what: string): void {
    if (this.status !== "input_required") throw new Error(`${what}: nothing to answer; ${this.describe()}`);
  }

  private misuse(reader: string, wanted: FlowStatus): Error {
    return new Error(`flow.${reader} needs a flow that is ${wanted}, but ${this.describe()}`);
  }

  private notificationParams(method: string): JsonObject[] {
    return this.round.notifications.filter((n) => n.method === method).map((n) => n.params ?? {});
  }
}

function resolve(answer: Answer | undefined, asked: AskedInput): InputResponse | Promise<InputResponse> | undefined {
  return typeof answer === "function" ? answer(asked) : answer;
}

function listKeys(keys: string[]): string {
  return keys.length === 0 ? "for nothing (state only)" : keys.map((k) => `"${k}"`).join(", ");
}
