import "reflect-metadata";
import { IsIn } from "class-validator";
import { Elicit, JSONSchema, Result, Tool, type ElicitedAnswers } from "roundtrip-mcp";

export class ColourForm {
  @IsIn(["red", "green", "blue"]) @JSONSchema({ title: "Colour" }) color!: string;
}

const SHADES: Record<string, string[]> = { red: ["crimson", "brick"], green: ["forest", "mint"], blue: ["navy", "sky"] };

/** A question computed from an earlier answer: an arrow function returning a form schema. */
const shadeQuestion = (answers: ElicitedAnswers) => ({
  type: "object" as const,
  properties: { shade: { type: "string" as const, enum: SHADES[(answers.color as ColourForm).color] } },
  required: ["shade"],
});

export class Palette {
  @Tool({ description: "Picks a colour, then a shade of it", annotations: { readOnlyHint: true } })
  pick(
    @Elicit("color", ColourForm, { message: "Pick a colour" }) colour: ColourForm,
    @Elicit("shade", shadeQuestion, { message: (a) => `Which ${(a.color as ColourForm).color}?`, after: ["color"] })
    shade: { shade: string },
  ) {
    return Result.structured({ color: colour.color, shade: shade.shade });
  }
}
