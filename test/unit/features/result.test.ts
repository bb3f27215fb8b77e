// Pins how what a component returns becomes a final result (every shaped result is also checked
// against the official wire schema for its method):
// - Result builders: text, structured (JSON text beside it, or the text given), image and audio
//   (base64 kept, bytes encoded), resource links with their fields, embedded text and blob
//   resources, several blocks in one result, an isError result
// - tools: a string is text; a Result passes through without its own resultType; undefined is empty
//   content; any other value is structured content with its JSON text; a content block of an
//   unknown type and output that breaks the declared outputSchema (or is missing) are server bugs
//   (OutputSchemaViolation); an isError result skips the output check
// - resources: a string is text and bytes a blob, both with the declared mimeType; { text } /
//   { blob } objects, arrays of them and { contents } are contents; the read URI and mimeType fill
//   each content; cache hints come from the declaration; undefined, null or nothing is -32602
//   "Resource not found" with data.uri; contents without a text or blob string are a server bug
// - prompts: a string is one user message; arrays and { messages } pass through; the declared
//   description is added unless the result has its own; anything else is a server bug
import "reflect-metadata";
import { IsInt } from "class-validator";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import { OutputSchemaViolation } from "../../../src/features/output-schema-violation";
import { shapePromptResult } from "../../../src/features/prompts/prompt-result";
import { shapeResourceResult } from "../../../src/features/resources/resource-result";
import { SilentLogger } from "../../../src/testing/index";
import { McpError, Prompt, Resource, Result, Tool } from "../../../src/index";
import { validateResult } from "../../support/wire-schema";

class Sum {
  @IsInt() sum!: number;
}

class Shapes {
  @Tool() plain() {}
  @Tool({ output: Sum }) typed() {}
  @Resource({ uri: "docs://readme", mimeType: "text/markdown", ttlMs: 60_000, cacheScope: "public" }) readme() {}
  @Resource({ uri: "docs://bare" }) bare() {}
  @Prompt({ description: "Reviews code" }) review() {}
}

const components = new FeatureTable(BUILT_IN_FEATURES, { components: [Shapes], logger: new SilentLogger() }).components;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const find = (kind: string, name: string): any => components.find((c) => c.ref.kind === kind && c.ref.name === name);
/** A tool's own shaping (its output check included), as the dispatcher calls it. */
const tool = (name: string) => find("tool", name) as { shape(value: unknown): Promise<Record<string, unknown>> };
const resource = (uri: string) => find("resource", uri);
const review = find("prompt", "review");

async function toolResult(name: string, value: unknown) {
  const shaped = await tool(name).shape(value);
  validateResult("tools/call", shaped);
  return shaped;
}

describe("Result builders", () => {
  it("build each content kind", () => {
    expect(Result.text("hi")).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(Result.structured({ sum: 3 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    expect(Result.structured({ sum: 3 }, "three")).toEqual({ content: [{ type: "text", text: "three" }], structuredContent: { sum: 3 } });
    expect(Result.image("iVBORw==", "image/png")).toEqual({ content: [{ type: "image", data: "iVBORw==", mimeType: "image/png" }] });
    expect(Result.audio(new Uint8Array([1, 2, 3]), "audio/wav")).toEqual({
      content: [{ type: "audio", data: "AQID", mimeType: "audio/wav" }],
    });
    expect(Result.resourceLink("docs://readme", "readme", { mimeType: "text/markdown", size: 8 })).toEqual({
      content: [{ type: "resource_link", uri: "docs://readme", name: "readme", mimeType: "text/markdown", size: 8 }],
    });
    expect(Result.embeddedResource({ uri: "docs://inline", mimeType: "text/plain", text: "inline" })).toEqual({
      content: [{ type: "resource", resource: { uri: "docs://inline", mimeType: "text/plain", text: "inline" } }],
    });
    expect(Result.embeddedResource({ uri: "docs://bytes", blob: new Uint8Array([1, 2, 3]) })).toEqual({
      content: [{ type: "resource", resource: { uri: "docs://bytes", blob: "AQID" } }],
    });
    expect(Result.error("no")).toEqual({ content: [{ type: "text", text: "no" }], isError: true });
  });

  it("put several blocks, or whole results, into one result", () => {
    expect(
      Result.content(Result.text("caption"), { type: "image", data: "AA==", mimeType: "image/png" }, Result.audio("UklGRg==", "audio/wav")),
    ).toEqual({
      content: [
        { type: "text", text: "caption" },
        { type: "image", data: "AA==", mimeType: "image/png" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      ],
    });
  });
});

describe("shapeToolResult", () => {
  it("makes a string a text block and undefined empty content", async () => {
    expect(await toolResult("plain", "hello")).toEqual({ resultType: "complete", content: [{ type: "text", text: "hello" }] });
    expect(await toolResult("plain", undefined)).toEqual({ resultType: "complete", content: [] });
  });

  it("passes a Result through, dropping a resultType of its own", async () => {
    const media = Result.content(
      Result.text("caption"),
      Result.image("iVBORw==", "image/png"),
      Result.resourceLink("docs://readme", "readme"),
    );
    expect(await toolResult("plain", media)).toEqual({ resultType: "complete", ...media });
    expect(await toolResult("plain", { ...Result.text("x"), resultType: "input_required" })).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "x" }],
    });
  });

  it("makes any other value structured content with its JSON text", async () => {
    expect(await toolResult("plain", { a: [1, 2] })).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: '{"a":[1,2]}' }],
      structuredContent: { a: [1, 2] },
    });
  });

  it("refuses a content block of an unknown type", async () => {
    await expect(tool("plain").shape({ content: [{ type: "video", data: "" }] })).rejects.toThrow(
      new OutputSchemaViolation("Shapes.plain returned a content block of unknown type"),
    );
  });

  it("checks structured output against the declared outputSchema", async () => {
    expect(await toolResult("typed", Result.structured({ sum: 42 }))).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: '{"sum":42}' }],
      structuredContent: { sum: 42 },
    });
    await expect(tool("typed").shape({ sum: "many" })).rejects.toThrow(OutputSchemaViolation);
    await expect(tool("typed").shape({ sum: "many" })).rejects.toThrow(
      /^Shapes\.typed returned structured content that breaks its outputSchema: sum: isInt/,
    );
    await expect(tool("typed").shape("no structure")).rejects.toThrow(
      "Shapes.typed declares an outputSchema but returned no structured content",
    );
    expect(await toolResult("typed", Result.error("failed"))).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "failed" }],
      isError: true,
    });
  });
});

describe("shapeResourceResult", () => {
  const shaped = (uri: string, value: unknown) => {
    const result = shapeResourceResult(resource(uri), uri, value);
    validateResult("resources/read", result);
    return result;
  };

  it("makes a string text and bytes a blob, with the declared mimeType and cache hints", () => {
    expect(shaped("docs://readme", "# Readme")).toEqual({
      resultType: "complete",
      contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Readme" }],
      ttlMs: 60_000,
      cacheScope: "public",
    });
    expect(shaped("docs://bare", new Uint8Array([1, 2, 3]))).toEqual({
      resultType: "complete",
      contents: [{ uri: "docs://bare", blob: "AQID" }],
      ttlMs: 0,
      cacheScope: "private",
    });
  });

  it("takes text/blob objects, arrays of them and { contents }, filling in uri and mimeType", () => {
    expect(shaped("docs://readme", { blob: "AQID", mimeType: "image/png" }).contents).toEqual([
      { uri: "docs://readme", mimeType: "image/png", blob: "AQID" },
    ]);
    expect(shaped("docs://readme", [{ text: "a" }, { text: "b" }]).contents).toEqual([
      { uri: "docs://readme", mimeType: "text/markdown", text: "a" },
      { uri: "docs://readme", mimeType: "text/markdown", text: "b" },
    ]);
    expect(shaped("docs://bare", { contents: [{ text: "c" }] }).contents).toEqual([{ uri: "docs://bare", text: "c" }]);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["no contents", []],
  ])("answers %s with -32602 Resource not found and data.uri", (_label, value) => {
    let error: unknown;
    try {
      shapeResourceResult(resource("docs://bare"), "docs://bare", value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).toJSON()).toEqual({
      code: -32602,
      message: "Resource not found: docs://bare",
      data: { uri: "docs://bare" },
    });
  });

  it("refuses contents without a text or blob string", () => {
    expect(() => shapeResourceResult(resource("docs://bare"), "docs://bare", { text: 3 })).toThrow(
      new OutputSchemaViolation("Shapes.bare returned resource contents without a text or blob string"),
    );
  });
});

describe("shapePromptResult", () => {
  const shaped = (value: unknown) => {
    const result = shapePromptResult(review, value);
    validateResult("prompts/get", result);
    return result;
  };

  it("makes a string one user message and adds the declared description", () => {
    expect(shaped("Review this")).toEqual({
      resultType: "complete",
      description: "Reviews code",
      messages: [{ role: "user", content: { type: "text", text: "Review this" } }],
    });
  });

  it("passes messages through, keeping a description of their own", () => {
    const messages = [{ role: "assistant", content: { type: "text", text: "Hi" } }];
    expect(shaped(messages)).toEqual({ resultType: "complete", description: "Reviews code", messages });
    expect(shaped({ messages, description: "Own" })).toEqual({ resultType: "complete", description: "Own", messages });
  });

  it("refuses anything else", () => {
    expect(() => shapePromptResult(review, 42)).toThrow(
      new OutputSchemaViolation("Shapes.review must return a string, an array of messages or { messages }"),
    );
  });
});
