// Pins AskedInput: it reads kind, message, url, schema, fields, required and choices for every enum
// shape (enum, oneOf, items.enum, items.anyOf), a missing mode as form, sampling and roots requests.
import { AskedInput, type WireInputRequest } from "roundtrip-mcp/testing";

describe("AskedInput", () => {
  const form = (properties: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): WireInputRequest => ({
    method: "elicitation/create",
    params: { mode: "form", message: "Pick", requestedSchema: { type: "object", properties, required: Object.keys(properties) }, ...extra },
  });

  it("reads a form's message, fields, required and single-field choices", () => {
    const asked = new AskedInput("color", form({ color: { type: "string", enum: ["red", "green"] } }));
    expect(asked).toMatchObject({
      key: "color",
      kind: "form",
      method: "elicitation/create",
      message: "Pick",
      fields: ["color"],
      required: ["color"],
      choices: ["red", "green"],
    });
    expect(asked.url).toBeUndefined();
    expect(asked.schema?.properties.color).toEqual({ type: "string", enum: ["red", "green"] });
    expect(JSON.parse(JSON.stringify(asked))).toEqual(asked.request);
  });

  it("reads every enum shape, and no choices for free or several fields", () => {
    expect(
      new AskedInput(
        "k",
        form({
          s: {
            type: "string",
            oneOf: [
              { const: "a", title: "A" },
              { const: "b", title: "B" },
            ],
          },
        }),
      ).choices,
    ).toEqual(["a", "b"]);
    expect(new AskedInput("k", form({ m: { type: "array", items: { type: "string", enum: ["x", "y"] } } })).choices).toEqual(["x", "y"]);
    expect(new AskedInput("k", form({ m: { type: "array", items: { anyOf: [{ const: "p", title: "P" }] } } })).choices).toEqual(["p"]);
    expect(new AskedInput("k", form({ name: { type: "string" } })).choices).toBeUndefined();
    const two = new AskedInput("k", form({ a: { type: "string", enum: ["1"] }, b: { type: "integer" } }));
    expect(two.choices).toBeUndefined();
    expect(two.choicesOf("a")).toEqual(["1"]);
    expect(two.choicesOf("b")).toBeUndefined();
    expect(() => two.choicesOf("c")).toThrow('asked("k").choicesOf: the form has no field "c" (fields: a, b)');
  });

  it("reads a form without mode as form, a URL request, sampling and roots", () => {
    const modeless = new AskedInput("f", {
      method: "elicitation/create",
      params: { message: "M", requestedSchema: { type: "object", properties: {} } },
    });
    expect(modeless.kind).toBe("form");
    const url = new AskedInput("u", {
      method: "elicitation/create",
      params: { mode: "url", message: "Open", url: "https://example.com/x" },
    });
    expect(url).toMatchObject({
      kind: "url",
      url: "https://example.com/x",
      message: "Open",
      fields: [],
      schema: undefined,
      choices: undefined,
    });
    const sample = new AskedInput("s", {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 },
    });
    expect(sample).toMatchObject({ kind: "sampling", message: undefined, params: { maxTokens: 5 } });
    expect(new AskedInput("r", { method: "roots/list" })).toMatchObject({ kind: "roots", params: {} });
  });
});
