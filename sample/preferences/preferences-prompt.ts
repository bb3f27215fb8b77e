// The shared workflow served as a prompt: the same two questions, then a user message.
import { Prompt } from "roundtrip-mcp";
import { AskColor, AskStyle, describePreferences, preferencesOf, type ColorChoice, type StyleChoice } from "./preference-questions";

export class PreferencesPrompt {
  @Prompt({ description: "Asks your preferences and turns them into a request for a theme" })
  preferences_prompt(@AskColor() color: ColorChoice, @AskStyle() style: StyleChoice): string {
    return `Suggest a colour theme for me. My preferences: ${describePreferences(preferencesOf(color, style))}.`;
  }
}
