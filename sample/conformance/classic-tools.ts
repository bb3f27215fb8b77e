// The classic tool fixtures: content kinds, progress, tool errors, a raw 2020-12 input schema and
// a tool argument mirrored into an HTTP header (x-mcp-header).
import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { IsInt, IsOptional, IsString } from "class-validator";
import { Arg, Ctx, JSONSchema, Result, Tool, type JsonObject, type RequestContext } from "roundtrip-mcp";
import { RED_PIXEL_PNG, silentWav } from "./media";

/** The inputSchema of json-schema-2020-12, as the scenario spells it: passed through unchanged. */
export const JSON_SCHEMA_2020_12_INPUT: JsonObject = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** Arguments of test_x_mcp_header: over HTTP each one travels in the body and in an Mcp-Param-* header. */
export class RegionArgs {
  @IsString()
  @JSONSchema({ description: "Region to route the request to", "x-mcp-header": "Region" })
  region!: string;

  @IsOptional()
  @IsInt()
  @JSONSchema({ description: "Routing priority", "x-mcp-header": "Priority" })
  priority?: number;
}

export class ClassicTools {
  @Tool({ description: "Returns one text block" })
  test_simple_text() {
    return Result.text("This is a simple text response for testing.");
  }

  @Tool({ description: "Returns a 1x1 PNG image" })
  test_image_content() {
    return Result.image(RED_PIXEL_PNG, "image/png");
  }

  @Tool({ description: "Returns a short WAV clip" })
  test_audio_content() {
    return Result.audio(silentWav(), "audio/wav");
  }

  @Tool({ description: "Returns an embedded text resource" })
  test_embedded_resource() {
    return Result.embeddedResource({
      uri: "test://embedded-resource",
      mimeType: "text/plain",
      text: "This is an embedded resource content.",
    });
  }

  @Tool({ description: "Returns text, an image and an embedded resource" })
  test_multiple_content_types() {
    return Result.content(
      Result.text("Multiple content types test:"),
      Result.image(RED_PIXEL_PNG, "image/png"),
      Result.embeddedResource({
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      }),
    );
  }

  @Tool({ description: "Reports progress 0, 50 and 100 of 100 (when the request carries a progressToken)" })
  async test_tool_with_progress(@Ctx() ctx: RequestContext) {
    await ctx.progress.report(0, 100);
    await sleep(50, undefined, { signal: ctx.signal });
    await ctx.progress.report(50, 100);
    await sleep(50, undefined, { signal: ctx.signal });
    await ctx.progress.report(100, 100);
    return `Progress reported: ${ctx.progress.enabled ? "yes" : "no progressToken"}`;
  }

  /** A thrown error is a tool execution failure: `isError: true` with the message, not a protocol error. */
  @Tool({ description: "Always fails" })
  test_error_handling(): never {
    throw new Error("This tool intentionally returns an error for testing");
  }

  @Tool({ name: "json_schema_2020_12_tool", description: "Tool with JSON Schema 2020-12 features", arguments: JSON_SCHEMA_2020_12_INPUT })
  jsonSchema202012(@Arg() args: Record<string, unknown>) {
    return Result.structured(args);
  }

  @Tool({ description: "Echoes arguments that HTTP clients also send as Mcp-Param-Region / Mcp-Param-Priority headers" })
  test_x_mcp_header(@Arg() args: RegionArgs) {
    return `Routed to ${args.region}${args.priority === undefined ? "" : ` with priority ${args.priority}`}`;
  }
}
