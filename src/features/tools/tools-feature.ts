import type { ToolOptions } from "../../decorators/tool";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { JsonObject } from "../../protocol/wire-types";
import type { FeatureModule } from "../feature-module";
import { listResult } from "../list-result";
import { RegistrationError } from "../registration-error";
import { checkParamHeaders } from "./param-headers";
import { compileTool, type ToolDefinition } from "./tool-definition";

/** Tools: `@Tool` declarations, `tools/list` and `tools/call` (with its `Mcp-Param-*` header check). */
export const toolsFeature: FeatureModule = {
  name: "tools",
  compile({ declarations, compiler, listCache }) {
    const tools = new Map<string, ToolDefinition>();
    for (const component of declarations) {
      if (component.declaration.kind !== "tool") continue;
      const options = component.declaration.options as ToolOptions;
      const tool = compiler.guard(component.where, () => compileTool(component, options, compiler));
      const earlier = tools.get(tool.name);
      if (earlier) throw new RegistrationError(`${component.where}: duplicate tool name "${tool.name}" (already declared by ${earlier.where})`);
      tools.set(tool.name, tool);
    }
    const list = [...tools.values()].map((t) => t.descriptor).sort((a, b) => String(a.name).localeCompare(String(b.name), "en"));
    const find = (params: JsonObject) => (typeof params.name === "string" ? tools.get(params.name) : undefined);
    return {
      components: [...tools.values()],
      capabilities: () => (tools.size > 0 ? { tools: { listChanged: true } } : {}),
      methods: [
        { method: "tools/list", inputRequired: false, capability: "tools", handle: async (request) => listResult(request, "tools", list, listCache) },
        {
          method: "tools/call",
          inputRequired: true,
          nameParam: "name",
          capability: "tools",
          async handle(request, runner) {
            const tool = find(request.params);
            if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(request.params.name)}`);
            return runner.run(tool, request);
          },
          checkHeaders(params, header) {
            const tool = find(params);
            return tool && tool.headerParams.length > 0 ? checkParamHeaders(tool, params.arguments, header) : undefined;
          },
        },
      ],
    };
  },
};
