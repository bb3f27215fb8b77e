// The shared workflow served as a resource template: the same two questions, then a text summary.
import { Scopes, Arg, Resource } from "roundtrip-mcp";
import { AskColor, AskStyle, describePreferences, preferencesOf, type ColorChoice, type StyleChoice } from "./preference-questions";

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class PreferencesSummaryResource {
  @Resource({
    uriTemplate: "preferences://{profile}/summary",
    name: "preferences-summary",
    description: "A profile's preferences, asked for on reading",
    mimeType: "text/plain",
  })
  summary(@Arg("profile") profile: string, @AskColor() color: ColorChoice, @AskStyle() style: StyleChoice): string {
    return `Preferences for profile ${profile}: ${describePreferences(preferencesOf(color, style))}`;
  }
}
