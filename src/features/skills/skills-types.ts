import type { FeatureModule } from "../feature-module";

/** What a `reload()` changed, as `SKILL.md` URIs. */
export interface SkillChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Skills whose entry (frontmatter or files) changed. */
  readonly changed: readonly string[];
}

/** The skills feature an app lists, with what it can do after the app is built. */
export interface SkillsFeature extends FeatureModule {
  /**
   * Reads the folder and the code skills again and serves the new catalog at once, in every app
   * that lists this feature; all or nothing: a catalog that breaks a rule is refused (the error
   * names the file) and the old one keeps serving. When skills were added, removed or changed,
   * `notifications/resources/list_changed` goes to the open `subscriptions/listen` streams (and
   * 2025 sessions) that asked for resource list changes.
   */
  reload(): Promise<SkillChanges>;
}
