import type { ViewOptions } from "../../decorators/view";
import type { JsonObject } from "../../protocol/wire-types";
import type { ComponentDefinition } from "../component-definition";
import type { FeatureModule } from "../feature-module";
import { RegistrationError } from "../registration-error";
import { toolLinks } from "./tool-links";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "./ui-extension";
import { compileView, type ViewDefinition } from "./view-definition";

/**
 * The MCP Apps extension (SEP-1865, `io.modelcontextprotocol/ui`): serves the app's `@View`
 * declarations as `ui://` resources (`text/html;profile=mcp-app`, `_meta.ui` on their list entries
 * and reads), lists the view and visibility of every tool that names one (`@Tool({ view,
 * visibility })`, under `_meta.ui` and the older `_meta["ui/resourceUri"]`), and declares the
 * extension in `server/discover` and in the 2025 `initialize` answer. Everything is compiled when
 * the app is built; views given as HTML or a file are served from memory. See docs/apps.md.
 *
 * @example const app = McpApp.create({ components: [Weather, WeatherDashboard], state: { ephemeral: true }, features: [apps()] });
 */
export function apps(): FeatureModule {
  return {
    name: UI_EXTENSION,
    compile({ declarations, components, compiler }) {
      const views: ViewDefinition[] = [];
      for (const component of declarations) {
        if (component.declaration.kind !== "view") continue;
        const options = component.declaration.options as ViewOptions;
        const view = compiler.guard(component.where, () => compileView(component, options, compiler));
        const earlier = views.find((v) => v.uri === view.uri);
        if (earlier !== undefined)
          throw new RegistrationError(
            `${view.where}: two views on "${view.uri}" (already declared by ${earlier.where}); give each its own uri`,
          );
        views.push(view);
      }
      const links = toolLinks(components, declarations, views);
      const settings = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };
      return {
        components: views,
        methods: [],
        // Both eras: the 2026-07-28 server/discover and the 2025 initialize answer.
        capabilities: () => settings,
        entryMeta: (component) => links.get(component),
        describe: describer(views, links),
      };
    },
  };
}

/**
 * The apps extension's part of `McpApp.describe()`: a linked tool's `view` and `visibility`, and a
 * view's HTML source, `_meta.ui` and the tools that show it.
 */
function describer(
  views: readonly ViewDefinition[],
  links: ReadonlyMap<ComponentDefinition, JsonObject>,
): (component: ComponentDefinition) => JsonObject | undefined {
  const linked = new Map<string, string[]>();
  const tools = new Map<ComponentDefinition, JsonObject>();
  for (const [tool, meta] of links) {
    const { resourceUri, visibility } = meta.ui as { resourceUri?: string; visibility: string[] };
    tools.set(tool, { ...(resourceUri !== undefined && { view: resourceUri }), visibility });
    if (resourceUri !== undefined) linked.set(resourceUri, [...(linked.get(resourceUri) ?? []), tool.ref.name]);
  }
  const described = new Map<ComponentDefinition, JsonObject>(views.map((v) => [v, { ...v.facts, tools: linked.get(v.uri) ?? [] }]));
  return (component) => tools.get(component) ?? described.get(component);
}
