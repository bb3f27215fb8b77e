import type { Server, ServerCapabilities } from "@modelcontextprotocol/server";
import type { LogLevel } from "../../../protocol/request-context";
import type { LiveSettings } from "./session-settings";

const LEVELS = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/**
 * What a 2025 session advertises: the app's 2025 capabilities, plus `resources.subscribe`, which
 * a session serves (`resources/subscribe`, then `notifications/resources/updated` on its streams).
 */
export function sessionCapabilities(legacy: ServerCapabilities): ServerCapabilities {
  if (legacy.resources === undefined) return legacy;
  return { ...legacy, resources: { ...legacy.resources, subscribe: true } };
}

/**
 * Serves `resources/subscribe`, `resources/unsubscribe` and `logging/setLevel` on a session's
 * server from the session's settings, which every instance serving the session shares (instead of
 * the SDK's own `logging/setLevel`, which keeps the level in the one SDK server that took it).
 */
export function servesSessionSettings(server: Server, settings: LiveSettings): Server {
  const serve = server as {
    setRequestHandler(method: string, handler: (request: { params?: { uri?: unknown; level?: unknown } }) => Promise<object>): void;
  };
  serve.setRequestHandler("resources/subscribe", async (request) => {
    if (typeof request.params?.uri === "string") await settings.subscribe(request.params.uri);
    return {};
  });
  serve.setRequestHandler("resources/unsubscribe", async (request) => {
    if (typeof request.params?.uri === "string") await settings.unsubscribe(request.params.uri);
    return {};
  });
  if (server.getCapabilities().logging !== undefined)
    serve.setRequestHandler("logging/setLevel", async (request) => {
      const level = request.params?.level;
      if (typeof level === "string" && LEVELS.has(level)) await settings.setLevel(level as LogLevel);
      return {};
    });
  return server;
}
