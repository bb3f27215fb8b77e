import "reflect-metadata";
import {
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import { resultFromTaskOutcome, type SerializedTaskReference } from "@modelcontextprotocol/ext-tasks/client";
import { taskId } from "@modelcontextprotocol/ext-tasks/core";
import { McpApp, tasks, type HttpListener } from "roundtrip-mcp";
import { createReportApp } from "../../../sample/tasks/report-app";
import { OrderExports } from "./export-tool";
import { buildReport, openTaskSession } from "./report-requester";

/** A transport that loses the answer to the first `tools/call`, as a connection dropped after the server answered would. */
class LosesFirstCallAnswer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The task the lost answer named. */
  lostTaskId?: string;
  private losing?: { id: unknown; streamEnded?: () => void };

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const answer = message as { id?: unknown; result?: { taskId?: string } };
      if (this.losing === undefined || answer.id !== this.losing.id) return this.onmessage?.(message, extra);
      this.lostTaskId = answer.result?.taskId;
      this.losing.streamEnded?.();
      this.losing = { id: undefined };
    };
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const request = message as { id?: unknown; method?: unknown };
    if (request.method === "tools/call" && this.losing === undefined) this.losing = { id: request.id, streamEnded: options?.onRequestStreamEnd };
    return this.inner.send(message, options);
  }
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * jest runs each test file in a realm of its own, and ext-tasks takes only plain objects of its own
 * realm as JSON ("Expected a JSON value"): a JSON answer is parsed here, not by fetch (outside jest,
 * `new StreamableHTTPClientTransport(url)` is all it takes).
 */
const fetchParsingHere: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  return Object.assign(response, { json: async (): Promise<unknown> => JSON.parse(await response.text()) });
};

describe.each(["Streamable HTTP", "in-process"])("build_report through ext-tasks, %s", (boundary) => {
  let app: McpApp;
  let listener: HttpListener | undefined;
  const asked: unknown[] = [];
  const includeAppendix = async (form: { readonly message?: unknown }) => {
    asked.push(form.message);
    return { action: "accept" as const, content: { appendix: true } };
  };
  const transport = async (): Promise<Transport> => (listener ? new StreamableHTTPClientTransport(new URL(listener.url), { fetch: fetchParsingHere }) : app.connect());

  beforeAll(async () => {
    app = createReportApp({ features: [tasks({ store: "memory:" })] });
    if (boundary === "Streamable HTTP") listener = await app.listen({ port: 0 });
  });
  afterAll(async () => {
    await listener?.close();
    await app.close();
  });
  beforeEach(() => (asked.length = 0));

  it("runs the task, answers the question it asks, and returns the report", async () => {
    const { client, session } = await openTaskSession(await transport(), includeAppendix);
    try {
      const report = await buildReport(session, { topic: "tasks", sections: 1 });
      expect(report.structuredContent).toMatchObject({ topic: "tasks", sections: ["1. tasks, part 1"], appendix: true });
      expect(asked).toEqual(["The report on tasks is drafted. Include the appendix?"]);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it("finds the task again by its idempotency key when the answer creating it was lost", async () => {
    const lossy = new LosesFirstCallAnswer(await transport());
    const { client, session } = await openTaskSession(lossy, includeAppendix);
    try {
      const report = await buildReport(session, { topic: "lost answers", sections: 1 }, "report-of-monday");
      // The server created a task and ran it although its answer never arrived; the call sent
      // again with the same key was answered that task: it is the one that completed, asked once.
      expect(lossy.lostTaskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const lost = await session.task(taskId(lossy.lostTaskId!)).snapshot();
      expect(lost.status).toBe("completed");
      expect(lost.raw.result).toMatchObject({ structuredContent: report.structuredContent });
      expect(asked).toHaveLength(1);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it("keeps a task handed off past its session, and cancels one its session closes", async () => {
    const first = await openTaskSession(await transport(), includeAppendix);
    const handedOff = await first.session.callTool("build_report", { topic: "later", sections: 1 });
    const closed = await first.session.callTool("build_report", { topic: "never", sections: 2 });
    if (handedOff.kind !== "task" || closed.kind !== "task") throw new Error("build_report always runs as a task");
    let saved: SerializedTaskReference | undefined;
    await handedOff.handoff((reference) => void (saved = reference)); // persist it where a later session finds it
    await handedOff.result(); // its local run has ended: closing the session no longer cancels it
    await first.session.close(); // closes the executions it still drives: `closed` is cancelled

    const second = await openTaskSession(await transport(), includeAppendix); // a new connection, as after a restart
    try {
      const resumed = await second.session.resumeTask(saved!);
      expect(resultFromTaskOutcome((await resumed.settle()).outcome).structuredContent).toMatchObject({ topic: "later", appendix: true });
      let status = (await second.session.task(closed.handle.taskId).snapshot()).status;
      while (status === "working" || status === "input_required") status = (await second.session.task(closed.handle.taskId).snapshot()).status;
      expect(status).toBe("cancelled");
    } finally {
      await second.session.close();
      await second.client.close();
      await first.client.close();
    }
  });
});

describe("a call that asks before its task exists, through ext-tasks", () => {
  it("answers the input_required round, then the task runs", async () => {
    const app = McpApp.create({ components: [OrderExports], state: { ephemeral: true }, features: [tasks({ store: "memory:" })] });
    const asked: unknown[] = [];
    const { client, session } = await openTaskSession(await app.connect(), async (form) => {
      asked.push(form.message);
      return { action: "accept", content: { format: "csv" } };
    });
    try {
      const execution = await session.callTool("export_orders", { orders: 2500 });
      expect(execution.kind).toBe("task");
      const result = resultFromTaskOutcome((await execution.settle()).outcome);
      expect(result.structuredContent).toEqual({ file: expect.stringMatching(/^orders-.+\.csv$/), rows: 2500 });
      expect(asked).toEqual(["Which file format?"]);
    } finally {
      await session.close();
      await client.close();
      await app.close();
    }
  });
});
