import "reflect-metadata";
import { Ctx, Elicitation, Result, Tool, type RequestContext } from "roundtrip-mcp";

const askName = Elicitation.form("What is your name?", {
  type: "object",
  properties: { name: { type: "string", minLength: 1, maxLength: 60 } },
  required: ["name"],
});

export class Welcome {
  @Tool({ description: "Greets the user by name, asking for it first" })
  welcome(@Ctx() ctx: RequestContext) {
    const answer = Elicitation.response(ctx, "name", askName);
    if (answer.status === "missing") return Result.inputRequired({ inputRequests: { name: askName } });
    if (answer.action !== "accept") return Result.error(`No name given (${answer.action}).`);
    return `Welcome, ${answer.content.name}!`;
  }
}
