import type { ResourceOptions } from "../../decorators/resource";
import { ErrorCode, McpError } from "../../protocol/errors";
import { resourceNotFound } from "./resource-result";
import type { FeatureModule, MethodSpec } from "../feature-module";
import { listResult, PAGINATED_PARAMS } from "../list-result";
import { VisibleEntries } from "../visible-entries";
import type { ComponentDefinition } from "../component-definition";
import { compileResource } from "./resource-definition";
import { ListedResources } from "./listed-resources";
import { ResourceRoutes } from "./resource-routes";

/** resources/read as data: what the router, the SDK bridge, the lane and the kit's `Mcp-Name` header read. */
export const RESOURCES_READ: MethodSpec = {
  method: "resources/read",
  inputRequired: true,
  nameParam: "uri",
  capability: "resources",
  direct: { cacheable: true, result: "as-is" },
  paramsShape: { type: "object", required: ["uri"], properties: { uri: { type: "string" } } },
};

function throwNotFound(uri: string): never {
  throw resourceNotFound(uri);
}

/**
 * Resources and resource templates: `@Resource` declarations, `resources/list`,
 * `resources/templates/list` and `resources/read`. A uri is read from its exact resource first,
 * then from the first template (in sorted order) that matches it, then from the resource sources
 * of other features (`CompiledFeature.resources`: skills' files), which `resources/list` lists
 * after the app's own. Resource components that later features compile (the apps extension's
 * views) are routed and listed like the app's own.
 */
export const resourcesFeature: FeatureModule = {
  name: "resources",
  compile({ declarations, compiler, lists, scopes, resourceSources }) {
    const routes = new ResourceRoutes();
    for (const component of declarations) {
      if (component.declaration.kind !== "resource") continue;
      const options = component.declaration.options as ResourceOptions;
      routes.add(compiler.guard(component.where, () => compileResource(component, options, compiler)));
    }
    // Listed once every feature has compiled: the resources of later features join these (the
    // apps extension's views), and each entry carries the `_meta` the features add.
    let resourceList: ListedResources | undefined;
    let templateList: VisibleEntries | undefined;
    // Other features' resources (skills' files) are read when no resource component serves the uri.
    const fromSources = (uri: string) => {
      for (const source of resourceSources()) {
        const selected = source.select(uri);
        if (selected !== undefined) return selected;
      }
      return undefined;
    };
    const named = (uri: unknown) => {
      if (typeof uri !== "string") return undefined;
      const own = routes.find(uri)?.component;
      if (own !== undefined) return own;
      try {
        return fromSources(uri)?.component;
      } catch {
        return undefined;
      }
    };
    const any = () => routes.size > 0 || resourceSources().length > 0;
    return {
      components: routes.components(),
      // resources.subscribe means resourceSubscriptions on 2026-07-28 subscriptions/listen (fed by
      // app.changes.resourceUpdated); in the 2025 era it promises resources/subscribe, which only a
      // 2025 session over HTTP serves (it adds the bit itself: server/http/sessions/session-server.ts).
      capabilities: (era) => (any() ? { resources: { listChanged: true, ...(era === "modern" && { subscribe: true }) } } : {}),
      link({ components, listed }) {
        for (const component of components) if (component.ref.kind === "resource" && !routes.has(component)) routes.add(component);
        routes.sort();
        const entry = (resource: ComponentDefinition) => ({ descriptor: listed(resource), scopes: resource.scopes });
        resourceList = new ListedResources(new VisibleEntries(routes.fixedInOrder().map(entry), lists, scopes), resourceSources);
        templateList = new VisibleEntries(routes.templatesInOrder().map(entry), lists, scopes);
      },
      methods: [
        {
          method: "resources/list",
          inputRequired: false,
          capability: "resources",
          direct: { cacheable: true, result: "as-is" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "resources", resourceList!.of(request), resourceList!.paging()),
        },
        {
          method: "resources/templates/list",
          inputRequired: false,
          capability: "resources",
          direct: { cacheable: true, result: "as-is" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "resourceTemplates", templateList!.of(request), templateList!.paging),
        },
        {
          ...RESOURCES_READ,
          scopesFor: (params) => named(params.uri)?.scopes,
          select(request) {
            const uri = request.params.uri;
            if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "resources/read needs a string uri");
            return routes.find(uri) ?? fromSources(uri) ?? throwNotFound(uri);
          },
        },
      ],
    };
  },
};
