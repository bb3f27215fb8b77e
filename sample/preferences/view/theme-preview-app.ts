// The theme preview's script, bundled into theme-preview.html by `npm run build`: an MCP Apps view
// written with the ext-apps App class. It shows the tool's input and result, asks the server for
// the colour's other styles (style_options, an app-only tool) and lets the user switch style
// (show_theme) or choose again (choose_preferences, which asks its questions: the host answers
// the input_required rounds). Every call goes through the host; the view reaches no server itself.
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";

interface Palette {
  color: string;
  style: string;
  accent: string;
  background: string;
  onAccent: string;
}

interface StyleOption {
  style: string;
  accent: string;
}

const app = new App({ name: "theme-preview", version: "1.0.0" }, {});
const byId = (id: string): HTMLElement => document.getElementById(id)!;
const status = (text: string): void => void (byId("status").textContent = text);

function isPalette(value: unknown): value is Palette {
  const v = value as Partial<Palette> | undefined;
  return typeof v?.color === "string" && typeof v.style === "string" && typeof v.accent === "string" && typeof v.background === "string";
}

function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? []).flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : [])).join(" ");
}

function render(palette: Palette): void {
  const root = document.documentElement.style;
  root.setProperty("--accent", palette.accent);
  root.setProperty("--background", palette.background);
  root.setProperty("--on-accent", palette.onAccent);
  byId("title").textContent = `Theme ${palette.color} / ${palette.style}`;
  byId("tool-result").textContent = `${palette.color} / ${palette.style}`;
  byId("swatch-accent").textContent = `accent ${palette.accent}`;
  byId("swatch-background").textContent = `background ${palette.background}`;
}

async function loadStyles(color: string): Promise<void> {
  const result = await app.callServerTool({ name: "style_options", arguments: { color } });
  const options = (result.structuredContent as { styles?: StyleOption[] } | undefined)?.styles ?? [];
  const list = byId("styles");
  list.replaceChildren(
    ...options.map((option) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.style = option.style;
      button.textContent = option.style;
      button.style.background = option.accent;
      button.addEventListener("click", () => void show(color, option.style));
      return button;
    }),
  );
  status(textOf(result));
}

async function show(color: string, style: string): Promise<void> {
  const result = await app.callServerTool({ name: "show_theme", arguments: { color, style } });
  if (result.isError || !isPalette(result.structuredContent)) return status(textOf(result));
  render(result.structuredContent);
  status(textOf(result));
}

async function chooseAgain(): Promise<void> {
  status("Asking…");
  const chosen = await app.callServerTool({ name: "choose_preferences", arguments: {} });
  const answer = chosen.structuredContent as { color?: string; style?: string } | undefined;
  if (chosen.isError || typeof answer?.color !== "string" || typeof answer.style !== "string") return status(textOf(chosen));
  await show(answer.color, answer.style);
  await loadStyles(answer.color);
  status(`Chosen: ${answer.color} / ${answer.style}`);
}

app.ontoolinput = ({ arguments: args }) => {
  byId("tool-input").textContent = Object.entries(args ?? {})
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(", ");
};

app.ontoolresult = (result) => {
  if (!isPalette(result.structuredContent)) return status(textOf(result));
  render(result.structuredContent);
  void loadStyles(result.structuredContent.color).catch((error: unknown) => status(String(error)));
};

byId("again").addEventListener("click", () => void chooseAgain().catch((error: unknown) => status(String(error))));

void app
  .connect(new PostMessageTransport(window.parent, window.parent))
  .catch((error: unknown) => status(`Not connected: ${String(error)}`));
