import type * as SdkModule from "@modelcontextprotocol/server";
import type * as SdkStdioModule from "@modelcontextprotocol/server/stdio";

/*
 * The official SDK, loaded at first use instead of with the package: requiring it costs about
 * 240 ms of an idle 2-core machine (with zod), more than a stdio host gives a server to answer its
 * first `server/discover` (issue 24). Code that needs an SDK value calls `sdk()` where it runs, and
 * imports only types at the top; the constants module-level code needs are copied below (pinned
 * equal to the SDK's by test/unit/server/request/sdk-module.test.ts).
 */

let server: typeof SdkModule | undefined;
let stdio: typeof SdkStdioModule | undefined;

/** `@modelcontextprotocol/server`, loaded on the first call. */
export function sdk(): typeof SdkModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use (startup)
  return (server ??= require("@modelcontextprotocol/server") as typeof SdkModule);
}

/** `@modelcontextprotocol/server/stdio`, loaded on the first call. */
export function sdkStdio(): typeof SdkStdioModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use (startup)
  return (stdio ??= require("@modelcontextprotocol/server/stdio") as typeof SdkStdioModule);
}

export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel";
export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";
/** The 2025-era revisions the SDK negotiates through `initialize`. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];
