// The prompt fixtures: plain, with arguments (and completion), with an embedded resource, with an image.
import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, Complete, JSONSchema, Prompt } from "roundtrip-mcp";
import { RED_PIXEL_PNG } from "./media";

const ARG1_VALUES = ["paris", "park", "party", "test", "testing", "tested"];

export class PromptArgs {
  @IsString()
  @JSONSchema({ description: "First test argument" })
  @Complete(({ value }) => ARG1_VALUES.filter((v) => v.startsWith(value.toLowerCase())))
  arg1!: string;

  @IsString()
  @JSONSchema({ description: "Second test argument" })
  arg2!: string;
}

export class EmbedArgs {
  @IsString()
  @JSONSchema({ description: "URI of the resource to embed" })
  resourceUri!: string;
}

export class ConformancePrompts {
  @Prompt({ description: "A simple prompt without arguments" })
  test_simple_prompt() {
    return "This is a simple prompt for testing.";
  }

  @Prompt({ description: "A prompt with two required arguments" })
  test_prompt_with_arguments(@Arg() args: PromptArgs) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Prompt({ description: "A prompt that embeds a resource" })
  test_prompt_with_embedded_resource(@Arg() args: EmbedArgs) {
    return [
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ];
  }

  @Prompt({ description: "A prompt with an image" })
  test_prompt_with_image() {
    return [
      { role: "user", content: { type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ];
  }
}
