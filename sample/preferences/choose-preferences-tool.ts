// The shared workflow served as a tool: three requests (colour, style, then the result).
import { IsIn, IsString } from "class-validator";
import { Scopes, Result, Tool, type ToolResult } from "roundtrip-mcp";
import {
  AskColor,
  AskStyle,
  COLORS,
  describePreferences,
  preferencesOf,
  type Color,
  type ColorChoice,
  type StyleChoice,
} from "./preference-questions";

/** The tool's structured output. */
export class ChosenPreferences {
  @IsIn([...COLORS]) color!: Color;
  @IsString() style!: string;
}

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class ChoosePreferencesTool {
  @Tool({
    description: "Asks your colour, then a style for it, and returns both",
    output: ChosenPreferences,
    annotations: { readOnlyHint: true },
  })
  choose_preferences(@AskColor() color: ColorChoice, @AskStyle() style: StyleChoice): ToolResult {
    const preferences = preferencesOf(color, style);
    return Result.structured(preferences, `Preferences chosen: ${describePreferences(preferences)}`);
  }
}
