import type { PromptOptions } from "../../decorators/prompt";
import { clip } from "../../protocol/clip";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { FeatureModule, MethodSpec } from "../feature-module";
import { listResult, PAGINATED_PARAMS } from "../list-result";
import { VisibleEntries } from "../visible-entries";
import { compilePrompt } from "./prompt-definition";
import { compareNames } from "../name-order";

/** prompts/get as data: what the router, the SDK bridge, the lane and the kit's `Mcp-Name` header read. */
export const PROMPTS_GET: MethodSpec = {
  method: "prompts/get",
  inputRequired: true,
  nameParam: "name",
  capability: "prompts",
  direct: { cacheable: false, result: "as-is" },
  paramsShape: {
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, arguments: { type: "object", additionalProperties: { type: "string" } } },
  },
};

/** Prompts: `@Prompt` declarations, `prompts/list` and `prompts/get`. */
export const promptsFeature: FeatureModule = {
  name: "prompts",
  compile({ declarations, compiler, lists, scopes }) {
    const prompts = compiler.byName(declarations, "prompt", (component) =>
      compilePrompt(component, component.declaration.options as PromptOptions, compiler),
    );
    const sorted = [...prompts.values()].sort((a, b) => compareNames(a.name, b.name));
    // Built once every feature has compiled: an entry carries the `_meta` other features add.
    let list: VisibleEntries | undefined;
    return {
      components: [...prompts.values()],
      capabilities: () => (prompts.size > 0 ? { prompts: { listChanged: true } } : {}),
      link: ({ listed }) => {
        list = new VisibleEntries(
          sorted.map((prompt) => ({ descriptor: listed(prompt), scopes: prompt.scopes })),
          lists,
          scopes,
        );
      },
      methods: [
        {
          method: "prompts/list",
          inputRequired: false,
          capability: "prompts",
          direct: { cacheable: true, result: "as-is" },
          paramsShape: PAGINATED_PARAMS,
          handle: async (request) => listResult(request, "prompts", list!.of(request), list!.paging),
        },
        {
          ...PROMPTS_GET,
          scopesFor: (params) => (typeof params.name === "string" ? prompts.get(params.name)?.scopes : undefined),
          select(request) {
            const name = request.params.name;
            const prompt = typeof name === "string" ? prompts.get(name) : undefined;
            if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${clip(String(name))}`);
            return { component: prompt };
          },
        },
      ],
    };
  },
};
