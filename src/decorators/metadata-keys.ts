/** Symbol keys under which decorators store plain data; the registry reads them once at bootstrap. */
export const COMPONENTS_KEY = Symbol.for("roundtrip-mcp.components");
export const PARAMS_KEY = Symbol.for("roundtrip-mcp.params");
export const MIDDLEWARE_KEY = Symbol.for("roundtrip-mcp.middleware");
export const COMPLETIONS_KEY = Symbol.for("roundtrip-mcp.completions");
export const SCOPES_KEY = Symbol.for("roundtrip-mcp.scopes");
