import type { ToolOptions } from "../../decorators/tool";
import { clip } from "../../protocol/clip";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { JsonObject } from "../../protocol/wire-types";
import type { FeatureModule, MethodSpec } from "../feature-module";
import { listResult, PAGINATED_PARAMS } from "../list-result";
import { VisibleEntries } from "../visible-entries";
import { checkParamHeaders } from "./param-headers";
import { compileTool } from "./tool-definition";
import { compareNames } from "../name-order";

/** tools/call as data: what the router, the SDK bridge, the lane and the kit's `Mcp-Name` header read. */
export const TOOLS_CALL: MethodSpec = {
  method: "tools/call",
  inputRequired: true,
  nameParam: "name",
  capability: "tools",
  direct: { cacheable: false, result: "tool-result" },
  paramsShape: { type: "object", required: ["name"], properties: { name: { type: "string" }, arguments: { type: "object" } } },
};

/** Tools: `@Tool` declarations, `tools/list` and `tools/call` (with its `Mcp-Param-*` header check). */
export const toolsFeature: FeatureModule = {
  name: "tools",
  compile({ declarations, compiler, lists, scopes }) {
    const tools = compiler.byName(declarations, "tool", (component) =>
      compileTool(component, component.declaration.options as ToolOptions, compiler),
    );
    const sorted = [...tools.values()].sort((a, b) => compareNames(a.name, b.name));
    // Built once every feature has compiled: an entry carries the `_meta` other features add (a view's `ui`).
    let list: VisibleEntries | undefined;
    const find = (params: JsonObject) => (typeof params.name === "string" ? tools.get(params.name) : undefined);
    return {
      components: [...tools.values()],
      capabilities: () => (tools.size > 0 ? { tools: { listChanged: true } } : {}),
      link: ({ listed }) => {
        list = new VisibleEntries(
          sorted.map((tool) => ({ descriptor: listed(tool), scopes: tool.scopes })),
          lists,
          scopes,
        );
      },
      methods: [
        {
          method: "tools/list",
          inputRequired: false,
          capability: "tools",
          direct: { cacheable: true, result: "tool-list" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "tools", list!.of(request), list!.paging),
        },
        {
          ...TOOLS_CALL,
          select(request) {
            const tool = find(request.params);
            if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${clip(String(request.params.name))}`);
            return { component: tool };
          },
          scopesFor: (params) => find(params)?.scopes,
          checkHeaders(params, header) {
            const tool = find(params);
            return tool && tool.headerParams.length > 0 ? checkParamHeaders(tool, params.arguments, header) : undefined;
          },
        },
      ],
    };
  },
};
