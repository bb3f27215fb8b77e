// A tool with a view: hosts that render MCP Apps show its result in the theme preview; every
// caller, view-aware or not, gets the whole palette as text too.
import { IsIn, IsString } from "class-validator";
import { Arg, Ctx, Result, Scopes, Tool, ToolError, rendersViews, type RequestContext, type ToolResult } from "roundtrip-mcp";
import { COLORS, STYLES_BY_COLOR, type Color } from "./preference-questions";
import { ThemePalette, describePalette, paletteOf } from "./theme-palette";
import { ThemePreviewView } from "./theme-preview-view";

export class ShowThemeArgs {
  @IsIn([...COLORS]) color!: Color;
  @IsString() style!: string;
}

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class ShowThemeTool {
  @Tool({
    description: "Shows a colour theme (a colour and one of its styles): its palette, previewed live where the host renders MCP Apps views",
    output: ThemePalette,
    view: ThemePreviewView,
    annotations: { readOnlyHint: true },
  })
  show_theme(@Arg() args: ShowThemeArgs, @Ctx() ctx: RequestContext): ToolResult {
    const palette = paletteOf(args.color, args.style);
    if (palette === undefined)
      throw new ToolError(`"${args.style}" is not a style of ${args.color}; its styles: ${STYLES_BY_COLOR[args.color].join(", ")}`);
    // Whether this caller renders the view, read from this request: the text says where to look.
    const text = rendersViews(ctx)
      ? `Theme ${describePalette(palette)}. Shown in the theme preview.`
      : `Theme ${describePalette(palette)}.`;
    return Result.structured(palette, text);
  }
}
