import "reflect-metadata";
import { IsIn } from "class-validator";
import { Elicit, McpError, Tool, UseMiddleware, type Middleware } from "roundtrip-mcp";

/** Runs on every round: authorization is checked each time, not only on the first request. */
export const requireSignedIn: Middleware = (ctx, next) => {
  if (ctx.principal === null) throw new McpError(-33001, "Sign in first");
  return next();
};

export class Confirm {
  @IsIn(["yes", "no"]) answer!: string;
}

@UseMiddleware(requireSignedIn)
export class Danger {
  @Tool({ description: "Deletes the user's drafts after confirmation", annotations: { destructiveHint: true } })
  delete_drafts(@Elicit("confirm", Confirm, { message: "Delete all drafts?" }) confirm: Confirm) {
    // The effect happens only on the final round, after every answer is in.
    return confirm.answer === "yes" ? "Drafts deleted." : "Nothing deleted.";
  }
}
