import type * as AppHttp from "./app-http";

/*
 * McpApp's HTTP wing (app-http.ts), loaded by the first `listen()`, `httpHandler()`,
 * `nodeHandler()` or `healthHandler()` instead of with the package: a stdio server answers its
 * first `server/discover` without loading the listener, the sessions or OAuth (issue 24).
 */
let wing: typeof AppHttp | undefined;

/** `app-http.ts`, loaded on the first call. */
export function httpWing(): typeof AppHttp {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use (startup)
  return (wing ??= require("./app-http") as typeof AppHttp);
}
