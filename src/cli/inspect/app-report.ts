// What a client will see of an app, and what only its declarations say: the lists and the
// discover answer through an in-memory client (the same path as stdio), beside `app.describe()`.
// Whatever the app advertises (a feature's extension, a descriptor's `_meta`, a resource of its
// own) is in the lists as the client gets it, and what a feature says of a component or of itself
// (`CompiledFeature.describe`, `describeFeature`) comes with the description, so new features show
// up here without code of ours.
import type { AppDescription, ComponentDescription, JsonObject, McpApp } from "roundtrip-mcp";
import { createTestClient } from "roundtrip-mcp/testing";

export interface AppReport {
  readonly server: { readonly name: string; readonly version: string; readonly title?: string };
  /** The `server/discover` answer: versions, capabilities (extensions included), instructions. */
  readonly discover: JsonObject;
  readonly tools: readonly ListedEntry[];
  readonly resources: readonly ListedEntry[];
  readonly resourceTemplates: readonly ListedEntry[];
  readonly prompts: readonly ListedEntry[];
  /** The features compiled, in order. */
  readonly features: readonly string[];
  /** What features say about themselves, by feature name (`AppDescription.featureFacts`): the skills served, ... */
  readonly featureFacts: AppDescription["featureFacts"];
}

/** One listed entry: the descriptor as the client gets it, and the component behind it, if one of the app's. */
export interface ListedEntry {
  readonly descriptor: JsonObject;
  readonly component?: ComponentDescription;
}

const LISTS = [
  ["tools", "tools/list", "tool", "name"],
  ["resources", "resources/list", "resource", "uri"],
  ["resourceTemplates", "resources/templates/list", "resource", "uriTemplate"],
  ["prompts", "prompts/list", "prompt", "name"],
] as const;

export async function appReport(app: McpApp): Promise<AppReport> {
  const description: AppDescription = app.describe();
  const client = await createTestClient(app);
  try {
    const discover = (await client.raw("server/discover")).result as JsonObject | undefined;
    const capabilities = (discover?.capabilities ?? {}) as JsonObject;
    const lists: Record<string, ListedEntry[]> = {};
    for (const [key, method, kind, nameField] of LISTS) {
      const capability = key === "resourceTemplates" ? "resources" : key;
      if (capabilities[capability] === undefined) {
        lists[key] = [];
        continue;
      }
      const listed = (await client.listAll(method)).items as JsonObject[];
      lists[key] = listed.map((descriptor) => {
        const component = description.components.find((c) => c.kind === kind && c.name === descriptor[nameField]);
        return component === undefined ? { descriptor } : { descriptor, component };
      });
    }
    const { _meta: _ignored, ...discovered } = discover ?? {};
    return {
      server: {
        name: description.name,
        version: description.version,
        ...(description.title !== undefined && { title: description.title }),
      },
      discover: discovered,
      tools: lists.tools!,
      resources: lists.resources!,
      resourceTemplates: lists.resourceTemplates!,
      prompts: lists.prompts!,
      features: description.features,
      featureFacts: description.featureFacts,
    };
  } finally {
    await client.close();
  }
}
