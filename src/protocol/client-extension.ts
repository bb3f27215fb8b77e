import { isPlainObject } from "./plain-object";
import type { ClientCapabilities, JsonObject } from "./wire-types";

/**
 * The settings a client declared for an extension (`capabilities.extensions[id]`) in the
 * capabilities of this very request (on 2025 eras: those of its session's `initialize`), or
 * undefined when it declared none. Read it from the request's context on every request: never
 * keep what an earlier request declared.
 *
 * @example const ui = clientExtension(ctx.clientCapabilities, "io.modelcontextprotocol/ui");
 */
export function clientExtension(capabilities: Readonly<ClientCapabilities>, id: string): Readonly<JsonObject> | undefined {
  const extensions = capabilities.extensions;
  if (!isPlainObject(extensions) || !Object.hasOwn(extensions, id)) return undefined;
  const settings = extensions[id];
  return isPlainObject(settings) ? settings : undefined;
}
