import "reflect-metadata";
import { IsIn } from "class-validator";
import { Elicit, JSONSchema, Result, Tool, type ElicitedAnswers } from "roundtrip-mcp";

export class ColourChoice {
  @IsIn(["red", "green", "blue"]) @JSONSchema({ title: "Colour" }) color!: string;
}

const STYLES: Record<string, string[]> = { red: ["crimson", "brick"], green: ["forest", "mint"], blue: ["navy", "sky"] };

/** The second question depends on the first answer. */
const styleQuestion = (answers: ElicitedAnswers) => ({
  type: "object" as const,
  properties: { style: { type: "string" as const, enum: STYLES[(answers.color as ColourChoice).color] } },
  required: ["style"],
});

export class PreferenceTools {
  @Tool({ description: "Asks a colour, then a style of that colour" })
  choose_preferences(
    @Elicit("color", ColourChoice, { message: "Which colour?" }) colour: ColourChoice,
    @Elicit("style", styleQuestion, { message: (a) => `Which ${(a.color as ColourChoice).color} style?`, after: ["color"] })
    style: { style: string },
  ) {
    return Result.structured({ color: colour.color, style: style.style });
  }
}
