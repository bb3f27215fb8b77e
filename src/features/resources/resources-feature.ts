import type { ResourceOptions } from "../../decorators/resource";
import { ErrorCode, McpError } from "../../protocol/errors";
import { resourceNotFound } from "./resource-result";
import type { FeatureModule, MethodSpec } from "../feature-module";
import { listResult, PAGINATED_PARAMS } from "../list-result";
import { VisibleEntries } from "../visible-entries";
import { RegistrationError } from "../registration-error";
import { compileResource, type ResourceDefinition } from "./resource-definition";
import { ListedResources } from "./listed-resources";

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
 * after the app's own.
 */
export const resourcesFeature: FeatureModule = {
  name: "resources",
  compile({ declarations, compiler, lists, scopes, resourceSources }) {
    const fixed = new Map<string, ResourceDefinition>();
    const templates: ResourceDefinition[] = [];
    for (const component of declarations) {
      if (component.declaration.kind !== "resource") continue;
      const options = component.declaration.options as ResourceOptions;
      const resource = compiler.guard(component.where, () => compileResource(component, options, compiler));
      if (resource.template) {
        if (templates.some((t) => t.template!.template === resource.template!.template)) {
          throw new RegistrationError(`${component.where}: duplicate resource template "${resource.template.template}"`);
        }
        templates.push(resource);
      } else {
        const earlier = fixed.get(resource.uri!);
        if (earlier)
          throw new RegistrationError(
            `${component.where}: duplicate resource uri "${resource.uri}" (already declared by ${earlier.where})`,
          );
        fixed.set(resource.uri!, resource);
      }
    }
    templates.sort((a, b) => a.template!.template.localeCompare(b.template!.template, "en"));
    const resourceList = new VisibleEntries(
      [...fixed.values()].sort((a, b) => String(a.descriptor.uri).localeCompare(String(b.descriptor.uri), "en")),
      lists,
      scopes,
    );
    const listed = new ListedResources(resourceList, resourceSources);
    const templateList = new VisibleEntries(templates, lists, scopes);
    // Other features' resources (skills' files) are read when no @Resource serves the uri.
    const fromSources = (uri: string) => {
      for (const source of resourceSources()) {
        const selected = source.select(uri);
        if (selected !== undefined) return selected;
      }
      return undefined;
    };
    const named = (uri: unknown) => {
      if (typeof uri !== "string") return undefined;
      const own = fixed.get(uri) ?? templates.find((t) => t.template!.match(uri) !== undefined);
      if (own !== undefined) return own;
      try {
        return fromSources(uri)?.component;
      } catch {
        return undefined;
      }
    };
    const any = () => fixed.size + templates.length > 0 || resourceSources().length > 0;
    return {
      components: [...fixed.values(), ...templates],
      // resources.subscribe means resourceSubscriptions on 2026-07-28 subscriptions/listen (fed by
      // app.changes.resourceUpdated); in the 2025 era it promises resources/subscribe, which only a
      // 2025 session over HTTP serves (it adds the bit itself: server/http/sessions/session-server.ts).
      capabilities: (era) => (any() ? { resources: { listChanged: true, ...(era === "modern" && { subscribe: true }) } } : {}),
      methods: [
        {
          method: "resources/list",
          inputRequired: false,
          capability: "resources",
          direct: { cacheable: true, result: "as-is" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "resources", listed.of(request), listed.paging()),
        },
        {
          method: "resources/templates/list",
          inputRequired: false,
          capability: "resources",
          direct: { cacheable: true, result: "as-is" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "resourceTemplates", templateList.of(request), templateList.paging),
        },
        {
          ...RESOURCES_READ,
          scopesFor: (params) => named(params.uri)?.scopes,
          select(request) {
            const uri = request.params.uri;
            if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "resources/read needs a string uri");
            const exact = fixed.get(uri);
            if (exact) return { component: exact };
            for (const template of templates) {
              const matched = template.template!.match(uri);
              if (matched) return { component: template, matched };
            }
            return fromSources(uri) ?? throwNotFound(uri);
          },
        },
      ],
    };
  },
};
