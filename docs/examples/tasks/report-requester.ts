import { randomUUID } from "node:crypto";
import { Client, type Transport } from "@modelcontextprotocol/client";
import {
  DispatchError,
  TaskFailedError,
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type ApplicationElicitResult,
  type TaskEnabledSession,
} from "@modelcontextprotocol/ext-tasks/client";
import { RequestCoordinator } from "./request-coordinator";

const CLIENT_INFO = { name: "report-requester", version: "1.0.0" };
// What this client may be asked: forms. ext-tasks adds the tasks extension to each task request.
const CAPABILITIES = { elicitation: { form: {} } };
/** roundtrip-mcp's key for a `tools/call` sent again: the same key answers the task the first one created. */
export const IDEMPOTENCY_KEY = "roundtrip-mcp/idempotencyKey";

export interface TaskSession {
  readonly client: Client;
  readonly session: TaskEnabledSession;
}

/**
 * The official client on `transport` (Streamable HTTP, stdio or in-memory), pinned to 2026-07-28,
 * and the ext-tasks session that runs task tools through it. `answer` answers the forms a call asks
 * before its task exists and the ones the task asks later.
 */
export async function openTaskSession(
  transport: Transport,
  answer: (form: { readonly message?: unknown }) => ApplicationElicitResult | Promise<ApplicationElicitResult>,
): Promise<TaskSession> {
  const coordinator = new RequestCoordinator(transport);
  const client = new Client(CLIENT_INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(coordinator);
  const session = createTaskSessionFromClient(client, {
    endpointId: "reports",
    rawDispatch: coordinator.dispatch,
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo: CLIENT_INFO, clientCapabilities: CAPABILITIES },
    onInputRequest: createApplicationInputHandler({
      elicitation: (request) => answer(request.params),
      sampling: () => Promise.reject(new Error("this client declared no sampling")),
      roots: () => Promise.reject(new Error("this client declared no roots")),
    }),
  });
  return { client, session };
}

/** True when the answer was lost on the way, not refused: the server may have done the work. */
function lostOnTheWay(error: unknown): boolean {
  return error instanceof DispatchError || (error instanceof TaskFailedError && error.cause instanceof DispatchError);
}

/**
 * Runs build_report and returns the report. The call carries an idempotency key, so when an answer
 * is lost (the server may have created the task) it is sent again with that key: the server then
 * answers the task the first call created, as it is now, instead of creating another.
 */
export async function buildReport(session: TaskEnabledSession, request: { topic: string; sections?: number }, key: string = randomUUID()) {
  for (let attempt = 1; ; attempt++) {
    try {
      const execution = await session.callTool("build_report", request, {
        metadata: { [IDEMPOTENCY_KEY]: key },
        task: { preference: "require" },
      });
      const { outcome } = await execution.settle();
      return resultFromTaskOutcome(outcome);
    } catch (error) {
      if (attempt === 3 || !lostOnTheWay(error)) throw error;
    }
  }
}
