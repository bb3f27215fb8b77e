/*
 * Pins inputRequired:
 * - returns { resultType: "input_required", inputRequests?, requestState? } with only what was given;
 * - needs at least one of inputRequests / requestState;
 * - an empty inputRequests without state throws, explaining the official TypeScript client
 *   rejects it; with a state the empty map is left out;
 * - requestState must be a non-empty string;
 * - every input request must be a well-formed elicitation/create, sampling/createMessage or
 *   roots/list request (hand-written ones checked: method, bare shape, mode, message, schema
 *   subset, URL, an elicitationId only on a URL question and 1-128 visible ASCII characters,
 *   sampling params, roots params); keys must be non-empty;
 * - a hand-written URL question may carry its own elicitationId (hosts track URL questions by it).
 */
import { Elicitation } from "../../../src/elicitation/elicitation";
import { ElicitationSchemaError } from "../../../src/schema/elicitation-schema-error";
import { inputRequired } from "../../../src/elicitation/input-required";
import { InputRequestError } from "../../../src/elicitation/input-request-error";
import { Roots } from "../../../src/elicitation/roots";
import { Sampling } from "../../../src/elicitation/sampling";
import type { InputRequest } from "../../../src/protocol/input-request";

const form = Elicitation.form("Name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
const sample = Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });

describe("inputRequired", () => {
  it("carries input requests", () => {
    expect(inputRequired({ inputRequests: { user_name: form } })).toEqual({
      resultType: "input_required",
      inputRequests: { user_name: form },
    });
  });

  it("carries requests and state, and a state alone", () => {
    expect(inputRequired({ inputRequests: { a: form, b: sample, c: Roots.list() }, requestState: "S1" })).toEqual({
      resultType: "input_required",
      inputRequests: { a: form, b: sample, c: Roots.list() },
      requestState: "S1",
    });
    expect(inputRequired({ requestState: "S2" })).toEqual({ resultType: "input_required", requestState: "S2" });
  });

  it("copies the inputRequests map", () => {
    const inputRequests: Record<string, InputRequest> = { a: form };
    const result = inputRequired({ inputRequests });
    inputRequests.b = Roots.list();
    expect(Object.keys(result.inputRequests!)).toEqual(["a"]);
  });

  it("needs at least one of inputRequests and requestState", () => {
    expect(() => inputRequired({})).toThrow(/inputRequests, requestState or both/);
  });

  it("refuses an empty inputRequests without state, naming the TypeScript client", () => {
    expect(() => inputRequired({ inputRequests: {} })).toThrow(/official TypeScript client/);
  });

  it("drops an empty inputRequests when a state is given", () => {
    expect(inputRequired({ inputRequests: {}, requestState: "S" })).toEqual({ resultType: "input_required", requestState: "S" });
  });

  it.each([[""], [42], [null]])("refuses the requestState %j", (requestState) => {
    expect(() => inputRequired({ inputRequests: { a: form }, requestState: requestState as never })).toThrow(/requestState/);
  });

  it("keeps a hand-written URL question's own elicitationId", () => {
    const own = {
      method: "elicitation/create",
      params: { mode: "url", message: "m", url: "https://e.com/c?flow=7", elicitationId: "flow-7" },
    };
    expect(inputRequired({ inputRequests: { c: own as InputRequest } }).inputRequests).toEqual({ c: own });
  });

  it("refuses an empty key and a non-object map", () => {
    expect(() => inputRequired({ inputRequests: { "": form } })).toThrow(/non-empty/);
    expect(() => inputRequired({ inputRequests: [form] as never })).toThrow(/object/);
  });

  const schema = { type: "object", properties: { n: { type: "string" } } };
  it.each<[string, unknown, RegExp]>([
    ["an unknown method", { method: "tools/call", params: {} }, /method must be/],
    ["a jsonrpc member", { jsonrpc: "2.0", method: "roots/list", params: {} }, /jsonrpc/],
    ["an id member", { id: 1, method: "roots/list", params: {} }, /"id"/],
    [
      "an elicitationId that is not 1-128 visible ASCII characters",
      { method: "elicitation/create", params: { mode: "url", message: "m", url: "https://e.com", elicitationId: "a b" } },
      /elicitationId must be/,
    ],
    [
      "an elicitationId on a form",
      { method: "elicitation/create", params: { mode: "form", message: "m", requestedSchema: schema, elicitationId: "x" } },
      /"elicitationId" is not allowed in form-mode params/,
    ],
    ["an unknown mode", { method: "elicitation/create", params: { mode: "popup", message: "m", requestedSchema: schema } }, /mode/],
    ["a form without message", { method: "elicitation/create", params: { mode: "form", requestedSchema: schema } }, /message/],
    [
      "a form with a url",
      { method: "elicitation/create", params: { mode: "form", message: "m", requestedSchema: schema, url: "https://e.com" } },
      /"url"/,
    ],
    [
      "a url with a schema",
      { method: "elicitation/create", params: { mode: "url", message: "m", url: "https://e.com", requestedSchema: schema } },
      /requestedSchema/,
    ],
    ["a javascript url", { method: "elicitation/create", params: { mode: "url", message: "m", url: "javascript:alert(1)" } }, /http/],
    ["missing params", { method: "elicitation/create" }, /params/],
    ["sampling without messages", { method: "sampling/createMessage", params: { maxTokens: 3 } }, /messages/],
    ["roots with params", { method: "roots/list", params: { cursor: "x" } }, /cursor/],
    ["not an object", "roots/list", /plain object/],
  ])("refuses %s", (_name, request, message) => {
    expect(() => inputRequired({ inputRequests: { k: request as InputRequest } })).toThrow(InputRequestError);
    expect(() => inputRequired({ inputRequests: { k: request as InputRequest } })).toThrow(message);
  });

  it("refuses a hand-written form whose schema leaves the subset", () => {
    const request = {
      method: "elicitation/create",
      params: { mode: "form", message: "m", requestedSchema: { type: "object", properties: { n: { type: "string", pattern: "x" } } } },
    };
    expect(() => inputRequired({ inputRequests: { k: request as InputRequest } })).toThrow(ElicitationSchemaError);
  });

  it("accepts well-formed hand-written requests (form mode omitted, roots params omitted)", () => {
    const handWritten = {
      a: { method: "elicitation/create", params: { message: "m", requestedSchema: schema } },
      b: { method: "roots/list" },
      c: { method: "elicitation/create", params: { mode: "url", message: "m", url: "https://e.com/x" } },
    } as unknown as Record<string, InputRequest>;
    expect(inputRequired({ inputRequests: handWritten }).inputRequests).toEqual(handWritten);
  });
});
