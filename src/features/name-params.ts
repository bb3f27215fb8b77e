import type { MethodSpec } from "./feature-module";
import { PROMPTS_GET } from "./prompts/prompts-feature";
import { RESOURCES_READ } from "./resources/resources-feature";
import { TASKS_CANCEL, TASKS_GET, TASKS_UPDATE } from "./tasks/task-methods";
import { TOOLS_CALL } from "./tools/tools-feature";

/** The param each method's `Mcp-Name` header mirrors, read from the specs' `nameParam`. */
export function nameParamsOf(specs: readonly MethodSpec[]): Readonly<Record<string, string>> {
  const table: Record<string, string> = {};
  for (const spec of specs) if (spec.nameParam !== undefined) table[spec.method] = spec.nameParam;
  return Object.freeze(table);
}

/**
 * The `Mcp-Name` params of the methods the features this package ships serve (SEP-2243; SEP-2663
 * for `tasks/*`), for a client that talks to servers it did not build (the kit's HTTP client): the
 * specs themselves, not a copy, so a feature's `nameParam` is the one place it is said.
 */
export const SHIPPED_NAME_PARAMS = nameParamsOf([TOOLS_CALL, PROMPTS_GET, RESOURCES_READ, TASKS_GET, TASKS_UPDATE, TASKS_CANCEL]);
