import { completionFeature } from "./completion/completion-feature";
import type { FeatureModule } from "./feature-module";
import { promptsFeature } from "./prompts/prompts-feature";
import { resourcesFeature } from "./resources/resources-feature";
import { toolsFeature } from "./tools/tools-feature";

/**
 * The features every app has, in compile order: completion comes after the features whose
 * components carry completion providers. A new always-on feature is one more entry here; a
 * feature with options is added per app (`McpAppOptions.features`).
 */
export const BUILT_IN_FEATURES: readonly FeatureModule[] = [toolsFeature, promptsFeature, resourcesFeature, completionFeature];
