// The shared workflow: the two questions (colour, then a style that depends on the colour) and
// how the answers are put into words. The tool, the resource and the prompt all ask through
// `@AskColor()` and `@AskStyle()`, so the questions are written once.
import { IsIn } from "class-validator";
import { Elicit, JSONSchema, type FormSchema, type ElicitedAnswers } from "roundtrip-mcp";

export const COLORS = ["red", "green", "blue"] as const;
export type Color = (typeof COLORS)[number];

/** The styles offered for each colour: the second round's choices. */
export const STYLES_BY_COLOR: Readonly<Record<Color, readonly string[]>> = {
  red: ["crimson", "coral", "brick"],
  green: ["forest", "mint", "olive"],
  blue: ["navy", "sky", "teal"],
};

export const COLOR_KEY = "color";
export const STYLE_KEY = "style";
export const COLOR_MESSAGE = "Which colour do you prefer?";

/** Round 1: a single-select form built from this DTO. */
export class ColorChoice {
  @IsIn([...COLORS]) @JSONSchema({ title: "Colour" }) color!: Color;
}

/** Round 2's answer (validated against the computed schema below). */
export interface StyleChoice {
  style: string;
}

export interface Preferences {
  color: Color;
  style: string;
}

/** The style question, computed from the colour answer. An arrow function: the framework tells it from a DTO class. */
const styleQuestion = (answers: ElicitedAnswers): FormSchema => ({
  type: "object",
  properties: { style: { type: "string", title: "Style", enum: [...STYLES_BY_COLOR[(answers[COLOR_KEY] as ColorChoice).color]] } },
  required: ["style"],
});

const styleMessage = (answers: ElicitedAnswers): string => `Which ${(answers[COLOR_KEY] as ColorChoice).color} style?`;

/** Asks the colour (first round). */
export const AskColor = (): ParameterDecorator => Elicit(COLOR_KEY, ColorChoice, { message: COLOR_MESSAGE });

/** Asks the style once the colour is known (second round); its choices depend on the colour. */
export const AskStyle = (): ParameterDecorator => Elicit(STYLE_KEY, styleQuestion, { message: styleMessage, after: [COLOR_KEY] });

export function preferencesOf(color: ColorChoice, style: StyleChoice): Preferences {
  return { color: color.color, style: style.style };
}

/** "green / mint": the answers as one phrase. */
export function describePreferences(preferences: Preferences): string {
  return `${preferences.color} / ${preferences.style}`;
}
