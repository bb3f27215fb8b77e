import { randomUUID } from "node:crypto";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { AppLogger } from "../../../protocol/app-logger";
import type { JsonValue } from "../../../protocol/canonical-json";
import { ErrorCode, McpError } from "../../../protocol/errors";
import type { InboundRequest } from "../../../protocol/inbound-request";
import { isPlainObject } from "../../../protocol/plain-object";
import type { JsonObject } from "../../../protocol/wire-types";
import type { SessionStateStore } from "../../../stores/session-state";
import { AnswerTimeout, CallLeft, type AnswerWaits } from "./answer-waits";
import type { LocalStream } from "./local-stream";
import type { SessionEventLog } from "./session-event-log";
import { roundStateSeconds, type ResolvedSessionOptions } from "./session-options";
import { decodeRound, newRound, type Round } from "./session-round";
import type { SessionRef } from "./stream-tokens";

/** Handler re-entries per call, as the SDK's own 2025 shim allows. */
const MAX_ROUNDS = 8;
/** A round that carries state only (nothing to ask) is re-entered after this pause, as the SDK's shim does. */
const STATE_ONLY_PACING_MS = 250;

/** What a round needs of the session its call belongs to. */
export interface RoundsSession {
  readonly ref: SessionRef;
  readonly events: SessionEventLog;
  /** Sends on the session's transport: the SDK's, with the request the message belongs to. */
  send(message: JSONRPCMessage, relatedRequestId: string | number | undefined): Promise<void>;
  /** Questions of this session waiting for the client's answer on this instance. */
  waiting: number;
}

export interface RoundsHost {
  readonly tag: string;
  readonly options: ResolvedSessionOptions;
  readonly state: SessionStateStore;
  readonly waits: AnswerWaits;
  readonly logger: AppLogger;
  readonly checkEveryMs: number;
  session(id: string | undefined): RoundsSession | undefined;
}

/** The bridge's hook for a 2025 session's request whose method may ask the client (tools/call, resources/read, prompts/get). */
export interface LegacyRounds {
  /** `version`: the revision the session negotiated, whose shape the questions are sent in. */
  run(first: InboundRequest, dispatch: (request: InboundRequest) => Promise<JsonObject>, version: string | undefined): Promise<JsonObject>;
}

/**
 * Runs a 2025 session's call through its rounds: each `input_required` the dispatcher answers
 * becomes real `elicitation/create` (`sampling/createMessage`, `roots/list`) requests on the
 * call's stream, the client's answers come back as this round's `inputResponses`, and the
 * dispatcher runs again with the round's sealed state, until the call completes: the same loop
 * the SDK's 2025 shim runs, with what every instance needs to carry the call on. Before a round's
 * questions are sent, the round is recorded in the shared state (the request, the sealed state,
 * the questions and their wire ids `<instance>~<stream>~<gen>.<round>.<n>`), so that an instance
 * taking the call over waits for the same answers, or runs the round again with them.
 */
export class SessionRounds implements LegacyRounds {
  /** The calls running here, by stream key: handed over when the instance shuts down. */
  readonly running = new Map<string, { readonly stream: LocalStream; leave(reason: string): void }>();

  constructor(private readonly host: RoundsHost) {}

  async run(
    request: InboundRequest,
    dispatch: (request: InboundRequest) => Promise<JsonObject>,
    version: string | undefined,
  ): Promise<JsonObject> {
    // The state a round seals (ours and the method's own) must outlast the wait for its answer.
    const first: InboundRequest = { ...request, stateLifetimeSeconds: roundStateSeconds(this.host.options) };
    const session = this.host.session(first.sessionId);
    const stream = session?.events.streamOf(first.requestId);
    const key = stream?.key ?? randomUUID();
    let left: string | undefined;
    const entry = { stream: stream!, leave: (reason: string) => ((left = reason), this.host.waits.leave(key, reason)) };
    if (stream !== undefined) this.running.set(key, entry);
    try {
      let result: JsonObject | undefined;
      let round: Round | undefined = stream?.takeover === undefined ? undefined : decodeRound(stream.takeover.round);
      if (round !== undefined) await this.redeliver(session!, stream!, round, first);
      else if (!needsInput((result = await dispatch(first)))) return result;
      for (let rounds = round?.n ?? 0; ;) {
        if (round === undefined) {
          if (++rounds > MAX_ROUNDS)
            return failure(first, `Multi-round-trip request '${first.method}' still required input after ${MAX_ROUNDS} rounds`);
          const requestState = typeof result!.requestState === "string" ? result!.requestState : undefined;
          const asks = isPlainObject(result!.inputRequests) ? result!.inputRequests : {};
          if (Object.keys(asks).length === 0) {
            await pause(STATE_ONLY_PACING_MS);
            result = await dispatch({ ...first, inputResponses: undefined, requestState });
            if (left !== undefined || !needsInput(result)) return result;
            continue;
          }
          if (session === undefined) return failure(first, "the request came without a session, so the client cannot be asked");
          round = newRound(rounds, asks, requestState, (n) => `${this.host.tag}~${key}~${stream?.gen ?? 0}.${rounds}.${n}`, version);
          const full = this.roomFor(session, round);
          if (full !== undefined) return failure(first, full);
          await this.record(stream, round);
          for (const question of round.questions) await session.send(question.request as JSONRPCMessage, first.requestId);
        }
        const answers = await this.answersTo(session!, stream, key, round, first);
        const refused = round.questions.map((q) => answers[q.wireId]).find((a) => isPlainObject(a) && "error" in a);
        if (refused !== undefined) return failure(first, `Fulfilling input required by '${first.method}' failed: ${errorText(refused)}`);
        const inputResponses = Object.fromEntries(round.questions.map((q) => [q.key, (answers[q.wireId] as JsonObject).result]));
        result = await dispatch({ ...first, inputResponses, requestState: round.requestState });
        round = undefined;
        if (left !== undefined || !needsInput(result)) return result;
      }
    } catch (error) {
      if (error instanceof CallLeft) throw new McpError(ErrorCode.InternalError, error.message);
      if (!(error instanceof AnswerTimeout)) throw error;
      const reason = `the client did not answer within ${this.host.options.answerTimeoutMs} ms (sessions.answerTimeoutMs)`;
      return failure(first, `Fulfilling input required by '${first.method}' failed: Request timed out: ${reason}`);
    } finally {
      if (this.running.get(key) === entry) this.running.delete(key);
    }
  }

  /** Undefined when the round's questions fit `maxPendingRequests` beside those the session already waits for. */
  private roomFor(session: RoundsSession, round: Round): string | undefined {
    const max = this.host.options.maxPendingRequests;
    if (session.waiting + round.questions.length <= max) return undefined;
    return `Fulfilling input required failed: this session already waits for ${max} answers from the client (sessions.maxPendingRequests); answer those first`;
  }

  /** Records the round in the shared state; a call of several requests (a batch) is not recorded, so not resumable elsewhere. */
  private async record(stream: LocalStream | undefined, round: Round): Promise<void> {
    if (stream === undefined || stream.request === undefined) return;
    const row = {
      stream: stream.key,
      session: stream.session.key,
      owner: this.host.tag,
      gen: stream.gen,
      request: stream.request,
      round: round as unknown as JsonValue,
      waiting: round.questions.map((q) => q.wireId),
      answers: {},
      finished: false,
    };
    const saved = await this.host.state.saveRound(row).catch((error: unknown) => {
      this.host.logger.warn("2025 sessions: a round could not be recorded in the shared state; its call resumes on this instance only", {
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    });
    if (saved === false) throw new CallLeft("another instance took it over");
    if (saved === true) stream.recorded = true;
  }

  private async answersTo(session: RoundsSession, stream: LocalStream | undefined, key: string, round: Round, first: InboundRequest) {
    const { options, state, tag, waits, checkEveryMs } = this.host;
    const wireIds = round.questions.map((q) => q.wireId);
    const remainingMs = Math.max(1, round.askedAt + options.answerTimeoutMs - Date.now());
    session.waiting += wireIds.length;
    try {
      return await waits.wait(key, wireIds, {
        load: () => (stream?.recorded ? state.loadCall(key) : Promise.resolve(undefined)),
        stillOurs: (row) => row.owner === tag && row.gen === stream?.gen,
        timeoutMs: remainingMs,
        checkEveryMs,
        signal: first.cancellation?.signal,
      });
    } catch (error) {
      if (error instanceof AnswerTimeout) {
        const reason = `the client did not answer within ${options.answerTimeoutMs} ms (sessions.answerTimeoutMs)`;
        for (const requestId of wireIds)
          await session
            .send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } } as JSONRPCMessage, first.requestId)
            .catch(() => undefined);
      }
      throw error;
    } finally {
      session.waiting -= wireIds.length;
    }
  }

  /** A call taken over: the round's questions the shared log does not show as sent are sent again, with their ids. */
  private async redeliver(session: RoundsSession, stream: LocalStream, round: Round, first: InboundRequest): Promise<void> {
    stream.recorded = true;
    const rows = await this.host.state.eventsAfter(stream.key, -1, -1).catch(() => []);
    const sent = new Set(
      rows
        .map((row) => JSON.parse(row.body) as { id?: unknown; method?: unknown })
        .filter((m) => m.method)
        .map((m) => m.id),
    );
    const answered = stream.takeover?.answers ?? {};
    for (const question of round.questions)
      if (!sent.has(question.wireId) && !(question.wireId in answered))
        await session.send(question.request as JSONRPCMessage, first.requestId);
  }
}

function needsInput(result: JsonObject): boolean {
  return result.resultType === "input_required";
}

/** How a call's failure reaches a 2025 client, as the SDK's shim surfaces it: a tool's isError result, else -32603. */
function failure(first: InboundRequest, message: string): JsonObject {
  if (first.method === "tools/call") return { content: [{ type: "text", text: message }], isError: true };
  throw new McpError(ErrorCode.InternalError, message);
}

function errorText(answer: unknown): string {
  const error = (answer as { error?: { code?: unknown; message?: unknown } }).error;
  return `MCP error ${String(error?.code)}: ${String(error?.message)}`;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
