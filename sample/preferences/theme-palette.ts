// The palette of each style the sample offers: what show_theme returns and the view draws.
import { IsHexColor, IsIn, IsString } from "class-validator";
import { COLORS, STYLES_BY_COLOR, type Color } from "./preference-questions";

/** The accent colour of each style (CSS named colours, as hex). */
const ACCENTS: Readonly<Record<string, string>> = {
  crimson: "#dc143c",
  coral: "#ff7f50",
  brick: "#b22222",
  forest: "#228b22",
  mint: "#3eb489",
  olive: "#808000",
  navy: "#000080",
  sky: "#87ceeb",
  teal: "#008080",
};

/** A theme: the accent of its style, a pale background tinted with it, and a text colour readable on the accent. */
export class ThemePalette {
  @IsIn([...COLORS]) color!: Color;
  @IsString() style!: string;
  @IsHexColor() accent!: string;
  @IsHexColor() background!: string;
  @IsHexColor() onAccent!: string;
}

/** The palette of a colour's style, or undefined when the style is not one of that colour's. */
export function paletteOf(color: Color, style: string): ThemePalette | undefined {
  if (!STYLES_BY_COLOR[color].includes(style)) return undefined;
  const accent = ACCENTS[style]!;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16)) as [number, number, number];
  const tint = (c: number) => Math.round(c + (255 - c) * 0.85);
  const hex = (c: number) => c.toString(16).padStart(2, "0");
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return {
    color,
    style,
    accent,
    background: `#${hex(tint(r))}${hex(tint(g))}${hex(tint(b))}`,
    onAccent: luminance > 140 ? "#1a1a1a" : "#ffffff",
  };
}

/** "red / crimson: accent #dc143c on background #fbe3e8, text #ffffff on the accent". */
export function describePalette(palette: ThemePalette): string {
  return `${palette.color} / ${palette.style}: accent ${palette.accent} on background ${palette.background}, text ${palette.onAccent} on the accent`;
}
