// The preferences sample as one app: five read-only components, sealed state with a
// process-lifetime random key (local use only: tokens die with the process).
import { McpApp, type McpAppOptions } from "roundtrip-mcp";
import { ChoosePreferencesTool } from "./choose-preferences-tool";
import { PreferencesPrompt } from "./preferences-prompt";
import { PreferencesSummaryResource } from "./preferences-summary-resource";
import { PreviewThemeTool } from "./preview-theme-tool";
import { ResetPreferencesTool } from "./reset-preferences-tool";

export const PREFERENCES_COMPONENTS = [
  ChoosePreferencesTool,
  PreferencesSummaryResource,
  PreferencesPrompt,
  PreviewThemeTool,
  ResetPreferencesTool,
];

/** `preferences` grants both the read and the admin scope of the components. */
export const PREFERENCES_SCOPE_HIERARCHY = { preferences: ["preferences:read", "preferences:admin"] };

export function createPreferencesApp(overrides: Partial<McpAppOptions> = {}): McpApp {
  return McpApp.create({
    name: "roundtrip-mcp-preferences",
    version: "1.0.0",
    components: PREFERENCES_COMPONENTS,
    state: { ephemeral: true },
    scopeHierarchy: PREFERENCES_SCOPE_HIERARCHY,
    ...overrides,
  });
}
