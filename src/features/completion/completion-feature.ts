import type { CompletionProvider } from "../../decorators/complete";
import { clip } from "../../protocol/clip";
import { ErrorCode, McpError } from "../../protocol/errors";
import { InsufficientScopeError } from "../../protocol/insufficient-scope-error";
import type { JsonObject } from "../../protocol/wire-types";
import type { CompletionSource } from "../component-definition";
import type { FeatureModule } from "../feature-module";

const MAX_VALUES = 100;
const STRING = { type: "string" };

/** completion/complete params as they travel: a prompt or resource-template ref, the argument, optional context. */
const COMPLETE_PARAMS = {
  type: "object",
  required: ["ref", "argument"],
  properties: {
    ref: {
      type: "object",
      required: ["type"],
      // The type first, then what it needs: a ref/prompt names a prompt, a ref/resource a template uri.
      allOf: [
        { properties: { type: { enum: ["ref/prompt", "ref/resource"] } } },
        {
          if: { properties: { type: { const: "ref/prompt" } } },
          then: { required: ["name"], properties: { name: STRING } },
          else: { required: ["uri"], properties: { uri: STRING } },
        },
      ],
    },
    argument: { type: "object", required: ["name", "value"], properties: { name: STRING, value: STRING } },
    context: { type: "object", properties: { arguments: { type: "object", additionalProperties: STRING } } },
  },
};

/** How an unknown ref of each type is refused. */
const UNKNOWN: Record<string, (ref: JsonObject) => McpError> = {
  "ref/prompt": (ref) => new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${clip(String(ref.name))}`),
  "ref/resource": (ref) => new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${clip(String(ref.uri))}`),
};

/**
 * Completion: `completion/complete` over the providers of the components registered before it
 * (prompt arguments by prompt name, template variables by uriTemplate). Registered after the
 * features whose components carry a `completion` source. A component's completions need the
 * scopes the component itself needs.
 */
export const completionFeature: FeatureModule = {
  name: "completion",
  compile({ components, logger, scopes }) {
    const sources = new Map<string, { readonly source: CompletionSource; readonly scopes: readonly string[] }>();
    for (const c of components)
      if (c.completion) sources.set(`${c.completion.refType}\0${c.completion.key}`, { source: c.completion, scopes: c.scopes });
    const named = (ref: unknown) => {
      if (typeof ref !== "object" || ref === null) return undefined;
      const { type, name, uri } = ref as JsonObject;
      const key = type === "ref/prompt" ? name : uri;
      return typeof key === "string" ? sources.get(`${String(type)}\0${key}`) : undefined;
    };
    return {
      capabilities: () => (sources.size > 0 ? { completions: {} } : {}),
      methods: [
        {
          method: "completion/complete",
          inputRequired: false,
          capability: "completions",
          paramsShape: COMPLETE_PARAMS,
          scopesFor: (params) => named(params.ref)?.scopes,
          async handle(request) {
            const { ref, argument, context } = request.params as { ref?: JsonObject; argument?: JsonObject; context?: JsonObject };
            if (!ref || typeof ref !== "object" || !argument || typeof argument.name !== "string" || typeof argument.value !== "string") {
              throw new McpError(ErrorCode.InvalidParams, "completion/complete needs ref and argument {name, value}");
            }
            const refType = clip(String(ref.type));
            const unknown = Object.prototype.hasOwnProperty.call(UNKNOWN, refType) ? UNKNOWN[refType] : undefined;
            if (!unknown) throw new McpError(ErrorCode.InvalidParams, `Unknown completion ref type: ${refType}`);
            const entry = named(ref);
            if (!entry) throw unknown(ref);
            if (!scopes.allows(entry.scopes, request.authorization)) throw new InsufficientScopeError(entry.scopes);
            const source = entry.source;
            const provider: CompletionProvider | undefined = Object.prototype.hasOwnProperty.call(source.providers, argument.name)
              ? source.providers[argument.name]
              : undefined;
            const others = (context?.arguments ?? {}) as Record<string, string>;
            const values = provider ? await provider({ value: argument.value, arguments: others }) : [];
            if (!Array.isArray(values) || values.some((v) => typeof v !== "string")) {
              logger.error("completion provider returned something other than string[]", { argument: argument.name });
              throw new McpError(ErrorCode.InternalError, "Internal error");
            }
            return {
              resultType: "complete",
              completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
            };
          },
        },
      ],
    };
  },
};
