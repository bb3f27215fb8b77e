/*
 * Pins Sampling (roots: roots.test.ts):
 * - Sampling.createMessage builds a bare, frozen { method: "sampling/createMessage", params }
 *   and rejects empty/missing messages, bad roles or content, non-positive or fractional
 *   maxTokens, unknown includeContext and malformed optional fields;
 * - Sampling.response: missing (no entry, other keys only), answered with a copy of the
 *   CreateMessageResult (unknown keys dropped), and -32602 "Invalid sampling response" with data
 *   { key, reason } for a null entry, an ElicitResult-shaped entry, wrong role, content, model or
 *   stopReason, never echoing the value; it refuses to read a request that is not sampling.
 */
import { McpError } from "../../../src/protocol/errors";
import type { InputRequest } from "../../../src/protocol/input-request";
import { InputRequestError } from "../../../src/elicitation/input-request-error";
import { Roots } from "../../../src/elicitation/roots";
import { Sampling } from "../../../src/elicitation/sampling";
import type { CreateMessageParams } from "../../../src/protocol/sampling-request";

const ctx = (inputResponses?: Record<string, unknown>) => ({ inputResponses });
const params: CreateMessageParams = {
  messages: [{ role: "user", content: { type: "text", text: "Summarise the ticket" } }],
  maxTokens: 200,
};
const ask = Sampling.createMessage(params);

function rejection(run: () => unknown): McpError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("expected a rejection");
}

describe("Sampling.createMessage", () => {
  it("builds a bare frozen request", () => {
    const request = Sampling.createMessage({
      ...params,
      systemPrompt: "Be brief",
      includeContext: "none",
      temperature: 0.2,
      stopSequences: ["END"],
    });
    expect(request).toEqual({
      method: "sampling/createMessage",
      params: { ...params, systemPrompt: "Be brief", includeContext: "none", temperature: 0.2, stopSequences: ["END"] },
    });
    expect(Object.isFrozen(request.params.messages[0])).toBe(true);
    const wire: InputRequest = request;
    expect(wire.method).toBe("sampling/createMessage");
  });

  it("accepts content arrays and tools", () => {
    expect(() =>
      Sampling.createMessage({
        messages: [
          {
            role: "assistant",
            content: [
              { type: "text", text: "a" },
              { type: "image", data: "AAAA", mimeType: "image/png" },
            ],
          },
        ],
        maxTokens: 1,
        tools: [{ name: "lookup", inputSchema: { type: "object" } }],
        toolChoice: { mode: "auto" },
      }),
    ).not.toThrow();
  });

  it.each<[string, unknown]>([
    ["no messages", { maxTokens: 10 }],
    ["empty messages", { messages: [], maxTokens: 10 }],
    ["a message without role", { messages: [{ content: { type: "text", text: "x" } }], maxTokens: 10 }],
    ["a system role", { messages: [{ role: "system", content: { type: "text", text: "x" } }], maxTokens: 10 }],
    ["a string content", { messages: [{ role: "user", content: "hello" }], maxTokens: 10 }],
    ["a text block without text", { messages: [{ role: "user", content: { type: "text" } }], maxTokens: 10 }],
    ["an empty content array", { messages: [{ role: "user", content: [] }], maxTokens: 10 }],
    ["no maxTokens", { messages: params.messages }],
    ["zero maxTokens", { ...params, maxTokens: 0 }],
    ["negative maxTokens", { ...params, maxTokens: -5 }],
    ["fractional maxTokens", { ...params, maxTokens: 1.5 }],
    ["string maxTokens", { ...params, maxTokens: "100" }],
    ["unknown includeContext", { ...params, includeContext: "everything" }],
    ["non-string systemPrompt", { ...params, systemPrompt: 1 }],
    ["non-number temperature", { ...params, temperature: "hot" }],
    ["non-string stopSequences", { ...params, stopSequences: [1] }],
    ["tools not an array", { ...params, tools: { name: "x" } }],
    ["toolChoice not an object", { ...params, toolChoice: "auto" }],
  ])("rejects %s", (_name, bad) => {
    expect(() => Sampling.createMessage(bad as CreateMessageParams)).toThrow(InputRequestError);
  });
});

describe("Sampling.response", () => {
  const result = { role: "assistant", content: { type: "text", text: "Short summary" }, model: "m-1", stopReason: "endTurn" };

  it("is missing without an entry", () => {
    expect(Sampling.response(ctx(), "s", ask)).toEqual({ status: "missing" });
    expect(Sampling.response(ctx({ other: result }), "s", ask)).toEqual({ status: "missing" });
  });

  it("returns a copy of the result with unknown keys dropped", () => {
    const answer = Sampling.response(ctx({ s: { ...result, extra: 1, _meta: { trace: "t" } } }), "s", ask);
    expect(answer).toEqual({ status: "answered", result: { ...result, _meta: { trace: "t" } } });
  });

  it("accepts an array content and no stopReason", () => {
    const entry = { role: "assistant", content: [{ type: "text", text: "a" }], model: "m" };
    expect(Sampling.response(ctx({ s: entry }), "s", ask)).toEqual({ status: "answered", result: entry });
  });

  it.each<[string, unknown, string]>([
    ["a null entry", null, "entry: not an object"],
    ["an elicitation answer", { action: "accept", content: {} }, "role: not user or assistant"],
    ["a system role", { ...result, role: "system" }, "role: not user or assistant"],
    ["a string content", { ...result, content: "text" }, "content: not a content block"],
    ["missing content", { role: "assistant", model: "m" }, "content: not a content block"],
    ["a missing model", { role: "assistant", content: result.content }, "model: not a string"],
    ["a numeric stopReason", { ...result, stopReason: 1 }, "stopReason: not a string"],
    ["a non-object _meta", { ...result, _meta: "x" }, "_meta: not an object"],
  ])("rejects %s", (_name, entry, reason) => {
    const error = rejection(() => Sampling.response(ctx({ s: entry }), "s", ask));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("Invalid sampling response");
    expect(error.data).toEqual({ key: "s", reason });
  });

  it("refuses to read a non-sampling request", () => {
    expect(() => Sampling.response(ctx(), "s", Roots.list() as never)).toThrow(TypeError);
  });
});
