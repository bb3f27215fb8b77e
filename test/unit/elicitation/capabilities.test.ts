/*
 * Pins requiredCapabilities / isAllowedBy / missingCapabilities (DIGEST §2.5.7, §3.1):
 * - form needs `elicitation` (bare {} or with `form`); `elicitation: { url: {} }` alone does not allow form;
 * - URL needs `elicitation.url`;
 * - sampling needs `sampling`; tools/toolChoice need `sampling.tools`; includeContext other than
 *   "none" needs `sampling.context`;
 * - roots needs `roots`; only object values count as declared;
 * - missingCapabilities merges what is missing into one ClientCapabilities object (form as
 *   { elicitation: {} }, URL as { elicitation: { url: {} } }, both as { form: {}, url: {} }),
 *   or undefined when nothing is missing.
 */
import type { ClientCapabilities } from "../../../src/protocol/wire-types";
import type { InputRequest } from "../../../src/protocol/input-request";
import { isAllowedBy, missingCapabilities, requiredCapabilities } from "../../../src/elicitation/capabilities";
import { Elicitation } from "../../../src/elicitation/elicitation";
import { Roots } from "../../../src/elicitation/roots";
import { Sampling } from "../../../src/elicitation/sampling";

const form = Elicitation.form("Name?", { type: "object", properties: { n: { type: "string" } } });
const url = Elicitation.url("Connect", "https://example.com/c");
const messages = [{ role: "user" as const, content: { type: "text", text: "hi" } }];
const sample = Sampling.createMessage({ messages, maxTokens: 5 });
const sampleNoneContext = Sampling.createMessage({ messages, maxTokens: 5, includeContext: "none" });
const sampleTools = Sampling.createMessage({ messages, maxTokens: 5, tools: [{ name: "t", inputSchema: { type: "object" } }] });
const sampleToolChoice = Sampling.createMessage({ messages, maxTokens: 5, toolChoice: { mode: "auto" } });
const sampleContext = Sampling.createMessage({ messages, maxTokens: 5, includeContext: "thisServer" });
const roots = Roots.list();

describe("requiredCapabilities", () => {
  it.each<[string, InputRequest, ClientCapabilities]>([
    ["form", form, { elicitation: {} }],
    ["url", url, { elicitation: { url: {} } }],
    ["sampling", sample, { sampling: {} }],
    ["sampling with includeContext none", sampleNoneContext, { sampling: {} }],
    ["sampling with tools", sampleTools, { sampling: { tools: {} } }],
    ["sampling with toolChoice", sampleToolChoice, { sampling: { tools: {} } }],
    ["sampling with context", sampleContext, { sampling: { context: {} } }],
    ["roots", roots, { roots: {} }],
  ])("%s", (_name, request, expected) => {
    expect(requiredCapabilities(request)).toEqual(expected);
  });

  it("treats a form request without mode as form", () => {
    const handWritten = { method: "elicitation/create", params: { message: "m", requestedSchema: { type: "object", properties: {} } } };
    expect(requiredCapabilities(handWritten as never)).toEqual({ elicitation: {} });
  });
});

describe("isAllowedBy", () => {
  const declarations: Record<string, ClientCapabilities> = {
    none: {},
    bare: { elicitation: {} },
    form: { elicitation: { form: {} } },
    url: { elicitation: { url: {} } },
    both: { elicitation: { form: {}, url: {} } },
    sampling: { sampling: {} },
    tools: { sampling: { tools: {} } },
    context: { sampling: { context: {} } },
    roots: { roots: { listChanged: true } },
    truthy: { elicitation: true, sampling: true, roots: true } as never,
  };
  // request -> declarations that allow it
  const matrix: [string, InputRequest, string[]][] = [
    ["form", form, ["bare", "form", "both"]],
    ["url", url, ["url", "both"]],
    ["sampling", sample, ["sampling", "tools", "context"]],
    ["sampling with tools", sampleTools, ["tools"]],
    ["sampling with toolChoice", sampleToolChoice, ["tools"]],
    ["sampling with context", sampleContext, ["context"]],
    ["roots", roots, ["roots"]],
  ];
  for (const [name, request, allowedBy] of matrix) {
    for (const [declaration, caps] of Object.entries(declarations)) {
      const expected = allowedBy.includes(declaration);
      it(`${name} ${expected ? "is" : "is not"} allowed by ${declaration}`, () => {
        expect(isAllowedBy(request, caps)).toBe(expected);
      });
    }
  }

  it("accepts form when elicitation declares only unknown keys", () => {
    expect(isAllowedBy(form, { elicitation: { future: {} } })).toBe(true);
  });
});

describe("missingCapabilities", () => {
  it("is undefined when everything is declared", () => {
    expect(
      missingCapabilities([form, url, sampleTools, roots], { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} }),
    ).toBeUndefined();
    expect(missingCapabilities([], {})).toBeUndefined();
  });

  it("expresses missing form as { elicitation: {} }", () => {
    expect(missingCapabilities([form, sample], { sampling: {} })).toEqual({ elicitation: {} });
    expect(missingCapabilities([form], { elicitation: { url: {} } })).toEqual({ elicitation: {} });
  });

  it("expresses missing URL as { elicitation: { url: {} } }", () => {
    expect(missingCapabilities([url], { elicitation: {} })).toEqual({ elicitation: { url: {} } });
  });

  it("names both modes when both are missing", () => {
    expect(missingCapabilities([form, url], {})).toEqual({ elicitation: { form: {}, url: {} } });
  });

  it("merges sampling, its sub-capabilities and roots", () => {
    expect(missingCapabilities([sample, sampleTools, sampleContext, roots, form], { elicitation: {} })).toEqual({
      sampling: { tools: {}, context: {} },
      roots: {},
    });
    expect(missingCapabilities([sampleTools], { sampling: {} })).toEqual({ sampling: { tools: {} } });
    expect(missingCapabilities([sample], {})).toEqual({ sampling: {} });
  });

  it("accepts any iterable", () => {
    expect(missingCapabilities(new Set([roots]), {})).toEqual({ roots: {} });
  });
});
