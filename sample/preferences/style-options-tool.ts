// An app-only tool: hidden from the model (visibility ["app"]), called by the theme preview through
// its host to offer the other styles of a colour.
import { IsIn } from "class-validator";
import { Arg, Result, Scopes, Tool, type ToolResult } from "roundtrip-mcp";
import { COLORS, STYLES_BY_COLOR, type Color } from "./preference-questions";
import { paletteOf } from "./theme-palette";
import { ThemePreviewView } from "./theme-preview-view";

export class StyleOptionsArgs {
  @IsIn([...COLORS]) color!: Color;
}

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class StyleOptionsTool {
  @Tool({
    description: "The styles of a colour with their accents, for the theme preview",
    view: ThemePreviewView,
    visibility: ["app"],
    annotations: { readOnlyHint: true },
  })
  style_options(@Arg() args: StyleOptionsArgs): ToolResult {
    const styles = STYLES_BY_COLOR[args.color].map((style) => ({ style, accent: paletteOf(args.color, style)!.accent }));
    return Result.structured({ color: args.color, styles }, `Styles of ${args.color}: ${styles.map((s) => s.style).join(", ")}`);
  }
}
