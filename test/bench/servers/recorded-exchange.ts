// The exchanges the HTTP benchmark records from the app and the ceiling server replays: for each
// tool, the app's answer to the first call and, for a tool that takes two rounds, its answer to
// the retry. Shared by the benchmark (which records them) and the ceiling server (which replays them).

/** One HTTP response as the app sent it. */
export interface RecordedResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** What the app answered for one tool: `first` only for a tool whose call takes two rounds. */
export interface RecordedExchange {
  /** The tool's name, as the request's `Mcp-Name` header carries it. */
  readonly name: string;
  /** The answer to a call without `requestState` (input_required), when the call takes two rounds. */
  readonly first?: RecordedResponse;
  /** The answer that completes the call (to the retry, when there is one). */
  readonly final: RecordedResponse;
}

/** The environment variable that hands the recorded exchanges (a JSON array) to the ceiling server. */
export const EXCHANGES_ENV = "BENCH_EXCHANGES";

/** The ceiling's cheap choice of round: a retry carries `requestState`, a first call does not. */
export const isRetryBody = (body: string): boolean => body.includes('"requestState"');
