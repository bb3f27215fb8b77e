import type * as SkillsParts from "./skills-parts";
import type { SkillsOptions } from "./skills-options";
import type { SkillsFeature } from "./skills-types";

export type { SkillChanges, SkillsFeature } from "./skills-types";

/**
 * The skills extension (SEP-2640, `io.modelcontextprotocol/skills`): serves a folder of skills
 * (each a folder with a `SKILL.md` whose frontmatter names and describes it) and skills registered
 * from code, as `skills/list`, `skills/get`, `resources/directory/read` and a `skill://` resource
 * for every file. The catalog is read, checked and digested once, when the app is built: a skill
 * that breaks a rule of the specification fails `McpApp.create()` naming the file. See docs/skills.md.
 *
 * @example const app = McpApp.create({ components: [], state: { ephemeral: true }, features: [skills({ folder: "./skills" })] });
 */
export function skills(options: SkillsOptions): SkillsFeature {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension (and its YAML parser) loads only when an app lists it
  return (require("./skills-parts") as typeof SkillsParts).skillsFeature(options);
}
