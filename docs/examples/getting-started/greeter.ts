import "reflect-metadata";
import { IsOptional, IsString, MaxLength } from "class-validator";
import { injectable } from "tsyringe";
import { Arg, JSONSchema, Tool } from "roundtrip-mcp";

/** A plain service; the container injects it into components. */
@injectable()
export class Greetings {
  greet(name: string, punctuation = "!"): string {
    return `Hello, ${name}${punctuation}`;
  }
}

/** Tool arguments: a class-validator DTO. Its decorators become the tool's inputSchema. */
export class GreetArgs {
  @IsString() @MaxLength(40) @JSONSchema({ description: "Who to greet" }) name!: string;
  @IsOptional() @IsString() punctuation?: string;
}

@injectable()
export class GreeterTools {
  constructor(private readonly greetings: Greetings) {}

  @Tool({ description: "Greets someone", annotations: { readOnlyHint: true } })
  greet(@Arg() args: GreetArgs): string {
    return this.greetings.greet(args.name, args.punctuation);
  }
}
