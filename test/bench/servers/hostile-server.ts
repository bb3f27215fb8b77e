// Benchmark server for the hostile-request benchmark: a roundtrip-mcp app over loopback HTTP in
// its own process, with the argument paths a large request makes work for: a DTO with an array of
// nested DTOs, a DTO with a free-form object, a raw JSON Schema validating every key and element,
// an @Elicit tool (its sealed state binds the params), a prompt, and the ordinary `add`. Prints its
// URL on one line when ready; answers the IPC message "cpu" with its process.cpuUsage(); exits on
// SIGTERM, SIGINT or when stdin ends.
import "reflect-metadata";
import { Type } from "class-transformer";
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min, ValidateNested } from "class-validator";
import { Arg, Elicit, McpApp, Prompt, Result, Tool } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";
import { exitWhenAsked } from "./exit-when-asked";

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Line {
  @IsString() @MaxLength(40) sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class OrderArgs {
  @IsString() customer!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
}

class TagArgs {
  @IsString() name!: string;
  @IsObject() meta!: Record<string, unknown>;
}

class Confirm {
  @IsIn(["yes", "no"]) answer!: string;
}

class ReviewArgs {
  @IsString() language!: string;
  @IsOptional() @IsString() focus?: string;
}

const RAW = {
  type: "object",
  properties: {
    m: { type: "object", additionalProperties: { type: "integer" } },
    a: { type: "array", items: { type: "integer" } },
    s: { type: "string" },
  },
};

class Bench {
  @Tool({ description: "The ordinary request" })
  add(@Arg() args: AddArgs) {
    return Result.structured({ sum: args.a + args.b });
  }

  @Tool({ description: "An array of nested DTOs" })
  order(@Arg() args: OrderArgs) {
    return `${args.lines.length} lines`;
  }

  @Tool({ description: "A free-form object in a DTO" })
  tag(@Arg() args: TagArgs) {
    return `${Object.keys(args.meta).length} keys`;
  }

  @Tool({ description: "Raw JSON Schema over every key and element", arguments: RAW })
  raw(@Arg() args: Record<string, unknown>) {
    return `${Object.keys(args).length} fields`;
  }

  @Tool({ description: "Asks before running: its sealed state binds the params", arguments: { type: "object" } })
  ask(@Arg() args: Record<string, unknown>, @Elicit("confirm", Confirm, { message: "Sure?" }) confirm: Confirm) {
    return `${Object.keys(args).length} ${confirm.answer}`;
  }

  @Prompt({ description: "A prompt with arguments" })
  review(@Arg() args: ReviewArgs) {
    return `Review ${args.language}`;
  }
}

async function main(): Promise<void> {
  const app = McpApp.create({ components: [Bench], state: { secret: "bench-secret-".padEnd(48, "x") }, logger: new SilentLogger() });
  const listener = await app.listen({ port: 0 });
  process.on("message", (message) => {
    if (message === "cpu") process.send?.(process.cpuUsage());
  });
  process.stdout.write(`${listener.url}\n`);
  exitWhenAsked(() => app.close());
}

main().catch((error: unknown) => {
  process.stderr.write(`[hostile-server] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
