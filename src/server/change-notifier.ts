/** The publish side of one serving entry's `subscriptions/listen` bus (the SDK handler's `notify`). */
export interface ChangeTarget {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * Announces changes to every open `subscriptions/listen` stream of the app: list changes and
 * updates of one resource. Each stream only receives the kinds it asked for (the SDK filters and
 * tags them with the subscription id). Calling it with no stream open does nothing.
 *
 * Every `McpApp` registers its own instance in its container, so application code reaches it by
 * injection, without a reference to the app; `app.changes` is the same instance.
 *
 * @example
 * @injectable() class Admin {
 *   constructor(private readonly changes: ChangeNotifier) {}
 *   @Tool() enable_beta() { this.changes.toolsChanged(); return "ok"; }
 * }
 */
export class ChangeNotifier {
  private readonly targets = new Set<ChangeTarget>();

  /** `notifications/tools/list_changed` to streams that asked for `toolsListChanged`. */
  toolsChanged(): void {
    for (const t of this.targets) t.toolsChanged();
  }

  /** `notifications/prompts/list_changed` to streams that asked for `promptsListChanged`. */
  promptsChanged(): void {
    for (const t of this.targets) t.promptsChanged();
  }

  /** `notifications/resources/list_changed` to streams that asked for `resourcesListChanged`. */
  resourcesChanged(): void {
    for (const t of this.targets) t.resourcesChanged();
  }

  /** `notifications/resources/updated` to streams subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    for (const t of this.targets) t.resourceUpdated(uri);
  }

  /**
   * Adds a serving entry's bus; returns the function that removes it again. Used by `McpApp`
   * for each HTTP handler it creates.
   */
  attach(target: ChangeTarget): () => void {
    this.targets.add(target);
    return () => void this.targets.delete(target);
  }
}
