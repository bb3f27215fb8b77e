import { componentDeclarations } from "../../decorators/component-declaration";
import type { ToolOptions } from "../../decorators/tool";
import type { ToolVisibility } from "../../decorators/view";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import type { DeclaredComponent } from "../component-compiler";
import type { ComponentDefinition } from "../component-definition";
import { RegistrationError } from "../registration-error";
import { LEGACY_RESOURCE_URI_META } from "./ui-extension";
import type { ViewDefinition } from "./view-definition";

const VISIBILITIES: readonly ToolVisibility[] = ["model", "app"];

/**
 * The `_meta` each tool linked to a view (or given a visibility) lists, built once: `ui` with
 * `resourceUri` and `visibility` (both audiences by default, written out), and the older flat
 * `ui/resourceUri` that hosts still read. A link to a view that does not exist is a
 * registration error naming the views there are.
 */
export function toolLinks(
  components: readonly ComponentDefinition[],
  declarations: readonly DeclaredComponent[],
  views: readonly ViewDefinition[],
): Map<ComponentDefinition, JsonObject> {
  // The options of each tool declaration, by class and method: one pass, not a search per tool.
  const declared = new Map<Function, Map<string, ToolOptions>>();
  for (const { cls, declaration } of declarations) {
    if (declaration.kind !== "tool") continue;
    if (!declared.has(cls)) declared.set(cls, new Map());
    declared.get(cls)!.set(declaration.methodName, declaration.options);
  }
  const links = new Map<ComponentDefinition, JsonObject>();
  for (const component of components) {
    if (component.ref.kind !== "tool") continue;
    const options = declared.get(component.token)?.get(component.methodName);
    if (options === undefined || (options.view === undefined && options.visibility === undefined)) continue;
    const where = component.where;
    if (isPlainObject(options._meta) && ("ui" in options._meta || LEGACY_RESOURCE_URI_META in options._meta))
      throw new RegistrationError(
        `${where}: _meta.ui and _meta["${LEGACY_RESOURCE_URI_META}"] are written from the view and visibility options; set those instead`,
      );
    const visibility = checkVisibility(options.visibility, where);
    if (options.view === undefined) {
      links.set(component, { ui: { visibility } });
      continue;
    }
    const uri = viewOf(options.view, views, where).uri;
    links.set(component, { ui: { resourceUri: uri, visibility }, [LEGACY_RESOURCE_URI_META]: uri });
  }
  return links;
}

function checkVisibility(visibility: readonly ToolVisibility[] | undefined, where: string): ToolVisibility[] {
  if (visibility === undefined) return [...VISIBILITIES];
  if (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => !VISIBILITIES.includes(v)))
    throw new RegistrationError(
      `${where}: visibility must list "model" (the agent calls it), "app" (its views call it through the host) or both, got ${JSON.stringify(visibility)}`,
    );
  if (new Set(visibility).size !== visibility.length) throw new RegistrationError(`${where}: visibility lists an audience twice`);
  return [...visibility];
}

/** The view a tool names: a class with one `@View` among the app's components, or a declared view's uri. */
function viewOf(view: Function | string, views: readonly ViewDefinition[], where: string): ViewDefinition {
  const declared = views.length === 0 ? "the app declares no view" : `the app's views: ${views.map((v) => v.uri).join(", ")}`;
  if (typeof view === "string") {
    const found = views.find((v) => v.uri === view);
    if (found === undefined)
      throw new RegistrationError(`${where}: view "${view}" is not declared by any @View of the app's components (${declared})`);
    return found;
  }
  if (typeof view !== "function")
    throw new RegistrationError(`${where}: view must be a class declared with @View, or a view's ui:// uri (${declared})`);
  const found = views.filter((v) => v.declaredBy === view);
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new RegistrationError(
      `${where}: view names ${view.name}, which declares ${found.length} views; name one by its uri (${found.map((v) => v.uri).join(", ")})`,
    );
  const ownViews = componentDeclarations(view).filter((d) => d.kind === "view");
  throw new RegistrationError(
    ownViews.length > 0
      ? `${where}: view names ${view.name}, which is not among the app's components; list it in components`
      : `${where}: view names ${view.name}, which declares no @View (${declared})`,
  );
}
