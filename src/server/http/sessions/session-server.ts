import type { Server, ServerCapabilities } from "@modelcontextprotocol/server";

/**
 * What a 2025 session advertises: the app's 2025 capabilities, plus `resources.subscribe`, which
 * a session serves (`resources/subscribe`, then `notifications/resources/updated` on its streams).
 */
export function sessionCapabilities(legacy: ServerCapabilities): ServerCapabilities {
  if (legacy.resources === undefined) return legacy;
  return { ...legacy, resources: { ...legacy.resources, subscribe: true } };
}

/** Adds `resources/subscribe` and `resources/unsubscribe` to a session's server, kept in `subscriptions`. */
export function servesSubscriptions(server: Server, subscriptions: Set<string>): Server {
  const serve = server as {
    setRequestHandler(method: string, handler: (request: { params?: { uri?: unknown } }) => Promise<object>): void;
  };
  serve.setRequestHandler("resources/subscribe", async (request) => {
    if (typeof request.params?.uri === "string") subscriptions.add(request.params.uri);
    return {};
  });
  serve.setRequestHandler("resources/unsubscribe", async (request) => {
    if (typeof request.params?.uri === "string") subscriptions.delete(request.params.uri);
    return {};
  });
  return server;
}
