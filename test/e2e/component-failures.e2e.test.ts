// Pins, over in-process, stdio and HTTP (raw JSON-RPC, every message checked against the wire
// schema), what a failing component sends and logs:
// - an unexpected exception in a tool, sync or async, is an isError result with a generic text
//   and an error id, never its message; the app's logger gets the message, the stack, the
//   component and the same error id at error level;
// - a ToolError keeps its message (deliberate, for the model); nothing is logged as a failure;
// - exposeErrors (development) lets the message through;
// - a result JSON cannot carry (a cycle, a bigint, a function, a symbol) is the server's fault:
//   the same generic isError with an error id for a tool, -32603 for a resource;
// - a resource or prompt that throws is -32603 "Internal error" with data.errorId, logged with it;
// - a handler past its time: the request's signal aborts (reason HandlerTimeout) and the client
//   gets -32603 "Request timed out" with data.timeoutMs, even when the handler ignores the signal;
//   the component's timeoutMs wins over the app's, and the app's bounds the others;
// - the signal of a request whose handler returned never aborts afterwards (over HTTP the SDK
//   closes the request's transport right after the response);
// - answers that make the sealed state too large: -32602 "Request state too large", the sizes in
//   the log, no internal detail on the wire.
import { BOUNDARIES, serveRaw } from "../support/boundaries";
import { createFailuresApp, kept, LEAK } from "./fixtures/failures-app";
import type { MemoryLogger } from "../../src/testing/index";

const GENERIC = /^Unexpected error \(error id ([0-9a-f-]{36})\); the details are in the server's log\.$/;

describe.each(BOUNDARIES)("component failures over %s", (name) => {
  const served = serveRaw(name, () => createFailuresApp(), "failures");
  const logged = () => (served.app.logger as MemoryLogger).entries;
  const request = (method: string, params: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
    served.raw.request(method, params, capabilities);

  async function toolText(tool: string): Promise<{ text: string; isError: unknown }> {
    const response = await request("tools/call", { name: tool, arguments: {} });
    const result = response.result as { isError?: unknown; content: { text: string }[] };
    expect(JSON.stringify(response)).not.toContain("hunter2");
    return { text: result.content[0]!.text, isError: result.isError };
  }

  it.each(["sync_throw", "async_throw"])(
    "turns an exception in %s into a generic isError with an error id, and logs it whole",
    async (tool) => {
      const { text, isError } = await toolText(tool);
      expect(isError).toBe(true);
      const errorId = GENERIC.exec(text)?.[1];
      expect(errorId).toBeDefined();
      if (name !== "stdio") {
        expect(logged()).toContainEqual({
          level: "error",
          message: "component failed",
          fields: expect.objectContaining({
            component: `Failing.${tool}`,
            method: "tools/call",
            errorId,
            error: LEAK,
            stack: expect.stringContaining(LEAK),
          }),
        });
      }
    },
  );

  it("keeps the message of a ToolError", async () => {
    expect(await toolText("model_error")).toEqual({ text: "No flight AB123 on 2026-07-28; check the flight number", isError: true });
    if (name !== "stdio") expect(logged().filter((e) => e.level === "error" && e.fields?.component === "Failing.model_error")).toEqual([]);
  });

  it.each(["circular", "bigint", "function_value", "symbol_value"])(
    "answers a result JSON cannot carry (%s) with a generic isError",
    async (tool) => {
      const { text, isError } = await toolText(tool);
      expect(isError).toBe(true);
      expect(text).toMatch(GENERIC);
    },
  );

  it.each([
    ["resources/read", { uri: "fail://boom" }],
    ["resources/read", { uri: "fail://circular" }],
    ["prompts/get", { name: "broken" }],
  ])("answers a failing %s %j with -32603 and data.errorId", async (method, params) => {
    const response = await request(method, params);
    expect(response.error).toEqual({
      code: -32603,
      message: "Internal error",
      data: { errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
    if (name !== "stdio") {
      const errorId = (response.error!.data as { errorId: string }).errorId;
      expect(logged()).toContainEqual(expect.objectContaining({ level: "error", fields: expect.objectContaining({ errorId }) }));
    }
  });

  it.each([
    ["stubborn", 150],
    ["polite", 150],
    ["forever", 300],
  ])("answers %s past its time with -32603 Request timed out", async (tool, timeoutMs) => {
    const response = await request("tools/call", { name: tool, arguments: {} });
    expect(response.error).toEqual({ code: -32603, message: "Request timed out", data: { timeoutMs } });
    if (tool === "polite" && name !== "stdio") expect((kept.abortedBy as Error).name).toBe("HandlerTimeout");
  });

  it("refuses answers that make the sealed state too large with -32602, the sizes logged", async () => {
    const response = await request(
      "tools/call",
      {
        name: "long_answer",
        arguments: {},
        inputResponses: { note: { action: "accept", content: { text: "n".repeat(13_000) } } },
      },
      { elicitation: { form: {} } },
    );
    expect(response.error).toEqual({
      code: -32602,
      message: "Request state too large: the answers so far do not fit in requestState; give shorter answers",
      data: { limit: 16384 },
    });
    if (name !== "stdio") {
      expect(logged()).toContainEqual({
        level: "warn",
        message: "requestState too large to seal",
        fields: { component: "Failing.long_answer", method: "tools/call", size: expect.any(Number), limit: 16384 },
      });
    }
  });

  if (name !== "stdio") {
    it("never aborts the signal of a handler that returned", async () => {
      const response = await request("tools/call", { name: "keep_signal", arguments: {} });
      expect(response.result).toMatchObject({ content: [{ type: "text", text: "kept" }] });
      // Let the transport finish with the request (over HTTP the SDK closes it after the response).
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      expect(kept.signal?.aborted).toBe(false);
    });
  }
});

describe("exposeErrors", () => {
  const served = serveRaw("in-process", () => createFailuresApp({ exposeErrors: true }), "failures");

  it("lets the message of an unexpected error through, for development", async () => {
    const tool = await served.raw.request("tools/call", { name: "sync_throw", arguments: {} });
    expect(tool.result).toMatchObject({ isError: true, content: [{ type: "text", text: LEAK }] });
    const resource = await served.raw.request("resources/read", { uri: "fail://boom" });
    expect(resource.error).toMatchObject({ code: -32603, message: `Internal error: ${LEAK}` });
  });

  it("checks the app's timeoutMs", () => {
    expect(() => createFailuresApp({ timeoutMs: 0 })).toThrow("McpApp.create: timeoutMs must be a positive integer, got 0");
  });
});
