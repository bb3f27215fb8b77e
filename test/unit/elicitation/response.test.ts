/*
 * Pins Elicitation.response:
 * - missing: no inputResponses, null inputResponses, no entry under the key, an entry only
 *   under other keys (unrelated keys are never read);
 * - answered: accept (validated content), decline, cancel (content ignored); URL accept has no
 *   content and means consent;
 * - extra flat content keys are stripped from the returned content; defaults are never filled;
 * - every invalid answer throws McpError -32602 "Invalid elicitation response" with
 *   data { key, reason } that never echoes the value: null / non-object entry, bad action,
 *   non-object or non-flat content, missing required key, wrong type, integer vs number,
 *   enum / oneOf membership, multi-select membership, duplicates, minItems / maxItems,
 *   minimum / maximum, minLength / maxLength in code points (an emoji is one), each format;
 *   a non-object inputResponses;
 * - property (fast-check): content generated from a schema is accepted unchanged.
 */
import fc from "fast-check";
import { Elicitation } from "../../../src/elicitation/elicitation";
import { ErrorCode, McpError } from "../../../src/protocol/errors";
import type { FormPropertySchema, FormSchema } from "../../../src/protocol/form-schema";

const ctx = (inputResponses?: Record<string, unknown> | null) =>
  ({ inputResponses }) as { inputResponses: Record<string, unknown> | undefined };

const profile = Elicitation.form("Tell us about you", {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 5, default: "Ada" },
    age: { type: "integer", minimum: 0, maximum: 120 },
    height: { type: "number", minimum: 0.5, maximum: 3 },
    subscribe: { type: "boolean", default: true },
    color: { type: "string", enum: ["red", "green"] },
    size: {
      type: "string",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
    days: {
      type: "array",
      items: {
        anyOf: [
          { const: "mon", title: "Monday" },
          { const: "tue", title: "Tuesday" },
        ],
      },
    },
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    birthday: { type: "string", format: "date" },
    meeting: { type: "string", format: "date-time" },
  },
  required: ["name", "age"],
});
const connect = Elicitation.url("Connect", "https://example.com/connect");

const NO_ENTRY = Symbol("no entry");

function invalid(content: Record<string, unknown> | unknown, entry: unknown = NO_ENTRY): McpError {
  const inputResponses = { profile: entry === NO_ENTRY ? { action: "accept", content } : entry };
  try {
    Elicitation.response(ctx(inputResponses), "profile", profile);
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("expected the answer to be rejected");
}

const base = { name: "Ada", age: 36 };

describe("Elicitation.response: missing", () => {
  it.each([
    ["no inputResponses", undefined],
    ["null inputResponses", null],
    ["empty inputResponses", {}],
    ["only unrelated keys", { other: { action: "accept", content: {} }, junk: 12345 }],
  ])("is missing with %s", (_name, inputResponses) => {
    expect(Elicitation.response(ctx(inputResponses as never), "profile", profile)).toEqual({ status: "missing" });
  });

  it.each(["toString", "constructor", "__proto__", "hasOwnProperty"])("does not mistake the inherited %s for an answer", (key) => {
    expect(Elicitation.response(ctx({}), key, profile)).toEqual({ status: "missing" });
  });
});

describe("Elicitation.response: answered", () => {
  it("returns validated content on accept", () => {
    const content = {
      ...base,
      height: 1.75,
      subscribe: false,
      color: "red",
      size: "l",
      tags: ["a", "c"],
      days: ["tue"],
      email: "ada@example.org",
      site: "https://ada.dev",
      birthday: "1815-12-10",
      meeting: "2024-05-01T09:00:00Z",
    };
    expect(Elicitation.response(ctx({ profile: { action: "accept", content } }), "profile", profile)).toEqual({
      status: "answered",
      action: "accept",
      content,
    });
  });

  it("strips extra flat keys and ignores unrelated input responses", () => {
    const answer = Elicitation.response(
      ctx({ profile: { action: "accept", content: { ...base, unknown: "x", list: ["y"] } }, other: null }),
      "profile",
      profile,
    );
    expect(answer).toEqual({ status: "answered", action: "accept", content: base });
  });

  it("never fills in defaults", () => {
    const answer = Elicitation.response(ctx({ profile: { action: "accept", content: base } }), "profile", profile);
    expect(answer.status === "answered" && answer.action === "accept" && answer.content).toEqual(base);
    expect(answer).not.toHaveProperty("content.subscribe");
  });

  it("does not share arrays with the raw answer", () => {
    const tags = ["a"];
    const answer = Elicitation.response(ctx({ profile: { action: "accept", content: { ...base, tags } } }), "profile", profile);
    tags.push("b");
    expect(answer).toEqual({ status: "answered", action: "accept", content: { ...base, tags: ["a"] } });
  });

  it.each(["decline", "cancel"] as const)("returns %s without content, ignoring any content sent", (action) => {
    expect(Elicitation.response(ctx({ profile: { action, content: { junk: { deep: 1 } } } }), "profile", profile)).toEqual({
      status: "answered",
      action,
    });
  });

  it("treats accept without content as an empty submission", () => {
    const optional = Elicitation.form("Anything?", { type: "object", properties: { note: { type: "string" } } });
    expect(Elicitation.response(ctx({ k: { action: "accept" } }), "k", optional)).toEqual({
      status: "answered",
      action: "accept",
      content: {},
    });
    expect(invalid(undefined, { action: "accept" }).data).toEqual({ key: "profile", reason: "content.name: required" });
  });

  it("reads a URL accept as consent without content", () => {
    expect(Elicitation.response(ctx({ c: { action: "accept" } }), "c", connect)).toEqual({ status: "answered", action: "accept" });
    expect(Elicitation.response(ctx({ c: { action: "accept", content: { x: 1 } } }), "c", connect)).toEqual({
      status: "answered",
      action: "accept",
    });
    expect(Elicitation.response(ctx({ c: { action: "decline" } }), "c", connect)).toEqual({ status: "answered", action: "decline" });
  });

  it("reads hand-written requests, form mode omitted", () => {
    const handWritten = {
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string" } } } },
    };
    expect(Elicitation.response(ctx({ k: { action: "accept", content: { n: "x" } } }), "k", handWritten as never)).toEqual({
      status: "answered",
      action: "accept",
      content: { n: "x" },
    });
  });

  it("refuses a malformed hand-written request as a programming error", () => {
    const bad = {
      method: "elicitation/create",
      params: { mode: "form", message: "x", requestedSchema: { type: "object", properties: { z: { type: "string", pattern: "a" } } } },
    };
    expect(() => Elicitation.response(ctx({}), "k", bad as never)).toThrow(/pattern/);
  });
});

describe("Elicitation.response: invalid answers", () => {
  it.each<[string, unknown, unknown, string]>([
    ["a null entry", undefined, null, "entry: not an object"],
    ["a string entry", undefined, "accept", "entry: not an object"],
    ["a number entry", undefined, 12345, "entry: not an object"],
    ["an array entry", undefined, [], "entry: not an object"],
    ["no action", undefined, { content: base }, "action: not one of accept, decline, cancel"],
    ["an unknown action", undefined, { action: "approve", content: base }, "action: not one of accept, decline, cancel"],
    ["a non-string action", undefined, { action: 1 }, "action: not one of accept, decline, cancel"],
    ["null content", undefined, { action: "accept", content: null }, "content: not an object"],
    ["array content", undefined, { action: "accept", content: [] }, "content: not an object"],
    ["string content", undefined, { action: "accept", content: "Ada" }, "content: not an object"],
    ["a nested extra key", { ...base, extra: { deep: true } }, undefined, "content: not a flat object"],
    ["a null extra key", { ...base, extra: null }, undefined, "content: not a flat object"],
    ["a number array extra key", { ...base, extra: [1] }, undefined, "content: not a flat object"],
    ["a missing required key", { age: 3 }, undefined, "content.name: required"],
    ["a null required value", { ...base, name: null }, undefined, "content.name: type"],
    ["a number for a string", { ...base, name: 12345 }, undefined, "content.name: type"],
    ["a string for an integer", { ...base, age: "36" }, undefined, "content.age: type"],
    ["a fraction for an integer", { ...base, age: 36.5 }, undefined, "content.age: type"],
    ["a string for a number", { ...base, height: "1.8" }, undefined, "content.height: type"],
    ["a string for a boolean", { ...base, subscribe: "true" }, undefined, "content.subscribe: type"],
    ["a value outside enum", { ...base, color: "blue" }, undefined, "content.color: enum"],
    ["a title instead of a oneOf const", { ...base, size: "Small" }, undefined, "content.size: oneOf"],
    ["a string for a multi-select", { ...base, tags: "a" }, undefined, "content.tags: type"],
    ["a value outside items.enum", { ...base, tags: ["z"] }, undefined, "content.tags: items.enum"],
    ["a value outside items.anyOf", { ...base, days: ["sun"] }, undefined, "content.days: items.anyOf"],
    ["a repeated selection", { ...base, tags: ["a", "a"] }, undefined, "content.tags: uniqueItems"],
    ["too few items", { ...base, tags: [] }, undefined, "content.tags: minItems"],
    ["too many items", { ...base, tags: ["a", "b", "c"] }, undefined, "content.tags: maxItems"],
    ["a value below minimum", { ...base, age: -1 }, undefined, "content.age: minimum"],
    ["a value above maximum", { ...base, age: 121 }, undefined, "content.age: maximum"],
    ["a number above maximum", { ...base, height: 3.01 }, undefined, "content.height: maximum"],
    ["a too short string", { ...base, name: "A" }, undefined, "content.name: minLength"],
    ["a too long string", { ...base, name: "Adalov" }, undefined, "content.name: maxLength"],
    ["six emoji for maxLength 5", { ...base, name: "😀😀😀😀😀😀" }, undefined, "content.name: maxLength"],
    ["a bad email", { ...base, email: "ada@localhost" }, undefined, "content.email: format"],
    ["a relative uri", { ...base, site: "/home" }, undefined, "content.site: format"],
    ["an impossible date", { ...base, birthday: "2023-02-29" }, undefined, "content.birthday: format"],
    ["a date-time without zone", { ...base, meeting: "2024-05-01T09:00:00" }, undefined, "content.meeting: format"],
  ])("rejects %s", (_name, content, entry, reason) => {
    const error = invalid(content, entry);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("Invalid elicitation response");
    expect(error.data).toEqual({ key: "profile", reason });
  });

  it("never echoes the submitted value", () => {
    const secret = "S3CRET-VALUE-123";
    for (const error of [
      invalid({ ...base, email: secret }),
      invalid({ ...base, name: secret }),
      invalid({ ...base, color: secret }),
      invalid({ ...base, extra: { secret } }),
      invalid(undefined, { action: secret }),
    ]) {
      expect(JSON.stringify(error.toJSON())).not.toContain(secret);
      expect(error.message).not.toContain(secret);
    }
  });

  it("rejects an inputResponses that is not an object", () => {
    expect(() => Elicitation.response({ inputResponses: [] as never }, "profile", profile)).toThrow("Invalid elicitation response");
  });

  it("counts code points: five emoji fit maxLength 5, two fit minLength 2", () => {
    const answer = Elicitation.response(ctx({ p: { action: "accept", content: { ...base, name: "👍🏽👍" } } }), "p", profile);
    expect(answer.status).toBe("answered");
    const five = Elicitation.response(ctx({ p: { action: "accept", content: { ...base, name: "😀😀😀😀😀" } } }), "p", profile);
    expect(five).toEqual({ status: "answered", action: "accept", content: { ...base, name: "😀😀😀😀😀" } });
  });

  it("rejects a one-emoji name under minLength 2", () => {
    expect(invalid({ ...base, name: "😀" }).data).toEqual({ key: "profile", reason: "content.name: minLength" });
  });
});

describe("Elicitation.response: generated answers", () => {
  // A schema and content that satisfies it, generated together.
  const field = fc.oneof(
    fc.tuple(fc.nat({ max: 4 }), fc.nat({ max: 4 })).chain(([min, span]) =>
      fc
        .string({ unit: "grapheme", minLength: min, maxLength: min + span })
        .filter((text) => [...text].length >= min && [...text].length <= min + span)
        .map((value) => ({ schema: { type: "string", minLength: min, maxLength: min + span } as FormPropertySchema, value })),
    ),
    fc
      .tuple(fc.integer({ min: -100, max: 100 }), fc.nat({ max: 50 }))
      .chain(([min, span]) =>
        fc
          .integer({ min, max: min + span })
          .map((value) => ({ schema: { type: "integer", minimum: min, maximum: min + span } as FormPropertySchema, value })),
      ),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((value) => ({ schema: { type: "number" } as FormPropertySchema, value })),
    fc.boolean().map((value) => ({ schema: { type: "boolean" } as FormPropertySchema, value })),
    fc
      .uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 5 })
      .chain((values) =>
        fc.constantFrom(...values).map((value) => ({ schema: { type: "string", enum: values } as FormPropertySchema, value })),
      ),
    fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 5 }).chain((values) =>
      fc.subarray(values, { minLength: 1 }).map((value) => ({
        schema: {
          type: "array",
          items: { anyOf: values.map((v) => ({ const: v, title: v.toUpperCase() })) },
          minItems: 1,
          maxItems: values.length,
        } as FormPropertySchema,
        value,
      })),
    ),
    fc.date({ min: new Date("1900-01-01"), max: new Date("2999-12-31"), noInvalidDate: true }).map((date) => ({
      schema: { type: "string", format: "date-time" } as FormPropertySchema,
      value: date.toISOString(),
    })),
    fc.date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }).map((date) => ({
      schema: { type: "string", format: "date" } as FormPropertySchema,
      value: date.toISOString().slice(0, 10),
    })),
    fc.emailAddress().map((value) => ({ schema: { type: "string", format: "email" } as FormPropertySchema, value })),
    fc.webUrl().map((value) => ({ schema: { type: "string", format: "uri" } as FormPropertySchema, value })),
  );

  it("accepts content generated from the schema, unchanged", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), field, { maxKeys: 6 }), (fields) => {
        const schema: FormSchema = {
          type: "object",
          properties: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.schema])),
          required: Object.keys(fields),
        };
        const content = Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.value]));
        const request = Elicitation.form("Generated", schema);
        expect(Elicitation.response(ctx({ g: { action: "accept", content } }), "g", request)).toEqual({
          status: "answered",
          action: "accept",
          content,
        });
      }),
    );
  });
});
