import "reflect-metadata";
import { IsOptional, IsString } from "class-validator";
import { Elicit, Tool, type ElicitResult } from "roundtrip-mcp";

export class Comment {
  @IsOptional() @IsString() text?: string;
}

export class Feedback {
  /** Default "end": a decline or cancel ends the call with an isError result naming the question. */
  @Tool()
  required_comment(@Elicit("comment", Comment, { message: "Your comment?" }) comment: Comment) {
    return `Thanks: ${comment.text ?? ""}`;
  }

  /** "optional": the parameter is undefined and the method runs. */
  @Tool()
  optional_comment(@Elicit("comment", Comment, { message: "Any comment?", onDecline: "optional" }) comment?: Comment) {
    return comment ? `Thanks: ${comment.text ?? ""}` : "No comment.";
  }

  /** "outcome": the method sees the whole outcome and decides. */
  @Tool()
  outcome_comment(@Elicit("comment", Comment, { message: "Any comment?", onDecline: "outcome" }) outcome: ElicitResult<Comment>) {
    return outcome.action === "accept" ? `Thanks: ${outcome.content?.text ?? ""}` : `You chose ${outcome.action}.`;
  }
}
