// The preferences sample as one app: read-only components, sealed state with a process-lifetime
// random key (local use only: tokens die with the process), and an MCP Apps view (the theme
// preview) with its two tools.
import { McpApp, apps, type McpAppOptions } from "roundtrip-mcp";
import { ChoosePreferencesTool } from "./choose-preferences-tool";
import { PreferencesPrompt } from "./preferences-prompt";
import { PreferencesSummaryResource } from "./preferences-summary-resource";
import { PreviewThemeTool } from "./preview-theme-tool";
import { ResetPreferencesTool } from "./reset-preferences-tool";
import { ShowThemeTool } from "./show-theme-tool";
import { StyleOptionsTool } from "./style-options-tool";
import { ThemePreviewView } from "./theme-preview-view";

export const PREFERENCES_COMPONENTS = [
  ChoosePreferencesTool,
  PreferencesSummaryResource,
  PreferencesPrompt,
  PreviewThemeTool,
  ResetPreferencesTool,
  ShowThemeTool,
  StyleOptionsTool,
  ThemePreviewView,
];

/** `preferences` grants both the read and the admin scope of the components. */
export const PREFERENCES_SCOPE_HIERARCHY = { preferences: ["preferences:read", "preferences:admin"] };

/** How `npm start` presents the sample to hosts and catalogs: its server card and serverInfo. */
export const PREFERENCES_LISTING: Partial<McpAppOptions> = {
  title: "Preferences",
  description: "Chooses and previews a colour and a style, asking the user for each",
  mcpName: "io.github.roundtrip-mcp/preferences",
  environment: [{ name: "PORT", description: "The port to listen on (0 takes a free one)", default: "3000", format: "number" }],
};

/** The sample app; `overrides.features` are listed after the apps feature its view needs. */
export function createPreferencesApp(overrides: Partial<McpAppOptions> = {}): McpApp {
  const { features = [], ...rest } = overrides;
  return McpApp.create({
    name: "roundtrip-mcp-preferences",
    version: "1.0.0",
    components: PREFERENCES_COMPONENTS,
    state: { ephemeral: true },
    scopeHierarchy: PREFERENCES_SCOPE_HIERARCHY,
    features: [apps(), ...features],
    ...rest,
  });
}
