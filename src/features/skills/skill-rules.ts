import type { JsonObject } from "../../protocol/wire-types";
import { RESERVED_METADATA_PREFIX } from "./skills-extension";

/** The Agent Skills name rule: lowercase letters and digits in groups joined by single hyphens. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Characters (code points), as the Agent Skills limits count them. */
function characters(text: string): number {
  return [...text].length;
}

/**
 * What the frontmatter of the skill in folder `folderName` breaks of the Agent Skills
 * specification and SEP-2640, one sentence each with the fix: `name` 1-64 lowercase letters,
 * digits and single hyphens, equal to the folder's name (the last segment of the skill path);
 * `description` 1-1024 characters; `compatibility` 1-500; `metadata` a map of strings whose keys
 * stay out of the prefix reserved for MCP extensions.
 */
export function frontmatterProblems(frontmatter: JsonObject, folderName: string): string[] {
  const problems: string[] = [];
  const { name, description, compatibility, metadata } = frontmatter;
  if (typeof name !== "string") problems.push('the frontmatter needs a string "name" (the skill\'s folder name)');
  else if (characters(name) > 64 || !NAME.test(name))
    problems.push(`frontmatter name "${name}" must be 1-64 lowercase letters and digits, joined by single hyphens`);
  else if (name !== folderName)
    problems.push(
      `frontmatter name "${name}" must equal the last segment of the skill's path, "${folderName}": rename the folder or the name`,
    );
  if (typeof description !== "string" || description.trim() === "" || characters(description) > 1024)
    problems.push('the frontmatter needs a "description" of 1-1024 characters saying what the skill does and when to use it');
  if (compatibility !== undefined && (typeof compatibility !== "string" || compatibility === "" || characters(compatibility) > 500))
    problems.push('frontmatter "compatibility" must be a string of 1-500 characters');
  if (metadata !== undefined) {
    if (
      typeof metadata !== "object" ||
      metadata === null ||
      Array.isArray(metadata) ||
      Object.values(metadata).some((v) => typeof v !== "string")
    )
      problems.push('frontmatter "metadata" must map strings to strings');
    else
      for (const key of Object.keys(metadata))
        if (key.startsWith(RESERVED_METADATA_PREFIX))
          problems.push(
            `frontmatter metadata key "${key}" uses the prefix ${RESERVED_METADATA_PREFIX}, which is reserved for MCP extensions: rename it`,
          );
  }
  return problems;
}
