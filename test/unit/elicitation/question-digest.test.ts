/*
 * Pins questionDigest:
 * - stable and deterministic (base64url SHA-256, 43 chars); schema key order and required
 *   order do not matter;
 * - the key, method, mode, URL and schema structure (types, constraints, formats, enum values,
 *   required set, property names) change it;
 * - message, title, description, default, option titles and $schema do not;
 * - sampling digests its params (not _meta); roots digests only key and method.
 */
import type { InputRequest } from "../../../src/protocol/input-request";
import { Elicitation } from "../../../src/elicitation/elicitation";
import type { FormSchema } from "../../../src/protocol/form-schema";
import { questionDigest } from "../../../src/elicitation/question-digest";
import { Roots } from "../../../src/elicitation/roots";
import { Sampling } from "../../../src/elicitation/sampling";

const schema: FormSchema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1 },
    color: {
      type: "string",
      oneOf: [
        { const: "r", title: "Red" },
        { const: "g", title: "Green" },
      ],
    },
  },
  required: ["name", "color"],
};
const digestOf = (s: FormSchema, message = "Who are you?", key = "who") => questionDigest(key, Elicitation.form(message, s));
const reference = digestOf(schema);

describe("questionDigest", () => {
  it("is a deterministic base64url SHA-256", () => {
    expect(reference).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digestOf(schema)).toBe(reference);
  });

  it("ignores key order in the schema and the order of required", () => {
    const reordered: FormSchema = {
      required: ["color", "name"],
      properties: {
        color: {
          oneOf: [
            { title: "Red", const: "r" },
            { title: "Green", const: "g" },
          ],
          type: "string",
        },
        name: { minLength: 1, title: "Name", type: "string" },
      },
      type: "object",
    };
    expect(digestOf(reordered)).toBe(reference);
  });

  it("ignores message, titles, descriptions, defaults, option titles and $schema", () => {
    expect(digestOf(schema, "Please say who you are")).toBe(reference);
    const reworded: FormSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        name: { type: "string", title: "Full name", description: "As written", minLength: 1, default: "Ada" },
        color: {
          type: "string",
          oneOf: [
            { const: "r", title: "Crimson" },
            { const: "g", title: "Lime" },
          ],
        },
      },
      required: ["name", "color"],
    };
    expect(digestOf(reworded)).toBe(reference);
  });

  it.each<[string, FormSchema]>([
    ["a changed constraint", { ...schema, properties: { ...schema.properties, name: { type: "string", title: "Name", minLength: 2 } } }],
    ["a changed type", { ...schema, properties: { ...schema.properties, name: { type: "integer" } } }],
    [
      "an added format",
      { ...schema, properties: { ...schema.properties, name: { type: "string", title: "Name", minLength: 1, format: "email" } } },
    ],
    [
      "a changed option value",
      {
        ...schema,
        properties: {
          ...schema.properties,
          color: {
            type: "string",
            oneOf: [
              { const: "r", title: "Red" },
              { const: "b", title: "Green" },
            ],
          },
        },
      },
    ],
    ["a changed required set", { ...schema, required: ["name"] }],
    ["an added property", { ...schema, properties: { ...schema.properties, extra: { type: "boolean" } } }],
    [
      "a renamed property",
      { type: "object", properties: { nom: schema.properties.name!, color: schema.properties.color! }, required: ["nom", "color"] },
    ],
  ])("changes with %s", (_name, changed) => {
    expect(digestOf(changed)).not.toBe(reference);
  });

  it("changes with the key", () => {
    expect(digestOf(schema, "Who are you?", "other")).not.toBe(reference);
  });

  it("distinguishes modes and URLs, but not URL messages", () => {
    const a = questionDigest("k", Elicitation.url("Connect", "https://example.com/a"));
    expect(questionDigest("k", Elicitation.url("Please connect", "https://example.com/a"))).toBe(a);
    expect(questionDigest("k", Elicitation.url("Connect", "https://example.com/b"))).not.toBe(a);
    expect(questionDigest("k", Elicitation.form("Connect", { type: "object", properties: {} }))).not.toBe(a);
  });

  it("treats an omitted form mode as form", () => {
    const handWritten = { method: "elicitation/create", params: { message: "Who?", requestedSchema: schema } } as unknown as InputRequest;
    expect(questionDigest("who", handWritten)).toBe(reference);
  });

  it("digests sampling params without _meta, and roots by key and method", () => {
    const messages = [{ role: "user" as const, content: { type: "text", text: "hi" } }];
    const a = questionDigest("s", Sampling.createMessage({ messages, maxTokens: 5 }));
    expect(questionDigest("s", Sampling.createMessage({ messages, maxTokens: 5, _meta: { trace: "x" } }))).toBe(a);
    expect(questionDigest("s", Sampling.createMessage({ messages, maxTokens: 6 }))).not.toBe(a);
    expect(questionDigest("r", Roots.list())).toBe(questionDigest("r", Roots.list()));
    expect(questionDigest("r", Roots.list())).not.toBe(questionDigest("r2", Roots.list()));
    expect(questionDigest("s", Roots.list())).not.toBe(a);
  });
});
