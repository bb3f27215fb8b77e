import "reflect-metadata";
import { IsString, MaxLength } from "class-validator";
import { Ctx, Elicit, Result, Sampling, Tool, type RequestContext } from "roundtrip-mcp";

export class Trip {
  @IsString() @MaxLength(60) destination!: string;
}

export class Guide {
  @Tool({ description: "Asks where to, then has the client's model write a travel tip" })
  tip(@Elicit("trip", Trip, { message: "Where are you going?" }) trip: Trip, @Ctx() ctx: RequestContext) {
    // Runs once the trip is known; the framework carries that answer while the method asks its own.
    const ask = Sampling.createMessage({
      messages: [{ role: "user", content: { type: "text", text: `One travel tip for ${trip.destination}` } }],
      maxTokens: 60,
    });
    const answer = Sampling.response(ctx, "tip", ask);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { tip: ask } });
    const content = answer.result.content as { type: string; text?: string };
    return `${trip.destination}: ${content.text ?? "(no text)"}`;
  }
}
