import type { AppLogger } from "../../../protocol/app-logger";
import { isPlainObject } from "../../../protocol/plain-object";
import type { CallRow, SessionStateStore } from "../../../stores/session-state";
import { responseId } from "./local-stream";
import type { Producer } from "./stream-follower";

/** Why a stream cannot go on here, as the client is told (a JSON-RPC error for each request still unanswered). */
export const NOT_RESUMABLE = {
  elsewhere:
    "This request's stream is held by another server instance, and the instances share no session state to resume it on this one " +
    "(give every instance the same PostgreSQL message bus); call it again",
  lost:
    "The server instance running this request stopped before it finished, and no other instance can carry it on: it had asked the " +
    "client nothing yet, so nothing was recorded (it may or may not have taken effect); call it again if it should run",
} as const;

export interface TakeoverDeps {
  readonly tag: string;
  readonly state: SessionStateStore;
  readonly logger: AppLogger;
}

/** The session a stream belongs to, as this instance serves it. */
export interface TakeoverSession {
  /** Whether this instance writes stream `key` now. */
  writes(key: string): boolean;
  /** Runs a call claimed from another instance here, from the round the shared state recorded. */
  run(call: CallRow): Promise<void>;
}

/**
 * Finds who writes a 2025 stream, and takes its call over when the instance that wrote it is gone
 * (killed, cut off, or shut down and released it): the first instance that needs it claims it in
 * the shared state (one generation up, so the old owner's late writes are refused) and runs it
 * from its recorded round. A call that finished is never run again.
 */
export class CallTakeover {
  constructor(private readonly deps: TakeoverDeps) {}

  /** `tag` is the instance that began the stream (what its event ids name), for a stream with no call recorded. */
  async locate(key: string, tag: string, here: TakeoverSession): Promise<Producer> {
    const { state } = this.deps;
    if (here.writes(key)) return "here";
    const call = await state.loadCall(key);
    if (call === undefined) {
      if (!state.shared && tag !== this.deps.tag) return { none: NOT_RESUMABLE.elsewhere };
      return tag !== this.deps.tag && (await state.isAlive(tag)) ? "elsewhere" : { none: NOT_RESUMABLE.lost };
    }
    // Finished (the log has its end), or ours yet not written here (it ended without its end recorded).
    if (call.finished || call.owner === this.deps.tag) return { none: NOT_RESUMABLE.lost };
    if (call.owner !== null && (await state.isAlive(call.owner))) return "elsewhere";
    const claimed = await state.claimCall(key, call.gen, this.deps.tag);
    if (claimed === undefined) {
      const now = await state.loadCall(key);
      return now !== undefined && !now.finished && now.owner !== null && (await state.isAlive(now.owner))
        ? "elsewhere"
        : { none: NOT_RESUMABLE.lost };
    }
    if (await this.answered(claimed)) {
      await state.finishCall(key, claimed.gen);
      return { none: NOT_RESUMABLE.lost };
    }
    this.deps.logger.info("2025 sessions: took over a call whose instance is gone", {
      from: call.owner ?? "released",
      generation: claimed.gen,
    });
    await here.run(claimed);
    return "here";
  }

  /** The call's final response is in the shared log already (its owner died between writing it and marking it finished). */
  private async answered(call: CallRow): Promise<boolean> {
    const id = isPlainObject(call.request) ? call.request.id : undefined;
    const rows = await this.deps.state.eventsAfter(call.stream, -1, -1);
    return rows.some((row) => responseId(JSON.parse(row.body)) === id);
  }
}
