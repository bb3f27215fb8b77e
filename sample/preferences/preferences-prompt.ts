// The shared workflow served as a prompt: the same two questions, then a user message.
import { Scopes, Prompt } from "roundtrip-mcp";
import { AskColor, AskStyle, describePreferences, preferencesOf, type ColorChoice, type StyleChoice } from "./preference-questions";

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class PreferencesPrompt {
  @Prompt({ description: "Asks your preferences and turns them into a request for a theme" })
  preferences_prompt(@AskColor() color: ColorChoice, @AskStyle() style: StyleChoice): string {
    return `Suggest a colour theme for me. My preferences: ${describePreferences(preferencesOf(color, style))}.`;
  }
}
