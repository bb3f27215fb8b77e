// Features beyond tools, resources and prompts, with the components that need them: none here.
// `roundtrip-mcp init --tasks` writes this file with the tasks extension (docs/tasks.md).
import type { McpAppOptions } from "roundtrip-mcp";

export const EXTENSIONS: NonNullable<McpAppOptions["features"]> = [];
export const EXTENSION_COMPONENTS: McpAppOptions["components"] = [];
