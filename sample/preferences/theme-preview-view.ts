// The theme preview: an MCP Apps view (docs/apps.md). Its HTML is view/theme-preview.html with the
// App-class script of view/theme-preview-app.ts bundled in, one file written by `npm run build`
// (sample/build-views.ts); the app reads it once when it is created. It reaches no origin itself:
// every call goes through its host, so it declares no CSP domains and gets the hosts' strictest policy.
import { join } from "node:path";
import { Scopes, View } from "roundtrip-mcp";

export const THEME_PREVIEW_URI = "ui://preferences/theme-preview";

/** Where `npm run build` writes the bundled view: beside the compiled sample, from the sources too. */
export const THEME_PREVIEW_FILE = join(
  __dirname,
  __filename.endsWith(".ts") ? "../../dist/sample/preferences/view" : "view",
  "theme-preview.html",
);

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
@View({
  uri: THEME_PREVIEW_URI,
  name: "theme-preview",
  title: "Theme preview",
  description: "A live preview of a colour theme: its swatches, the other styles of its colour, and a button to choose again",
  html: { file: THEME_PREVIEW_FILE },
  prefersBorder: true,
})
export class ThemePreviewView {}
