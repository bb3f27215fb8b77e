// Skills folders for tests: a temporary folder holding the given files, removed after the suite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];
afterAll(() => made.splice(0).forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

/** A new temporary folder holding `files` (relative path -> contents). */
export function folderOf(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "skills-"));
  made.push(root);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}

/** A SKILL.md named `name`, with a description and any more frontmatter lines. */
export const manifest = (name: string, description = `The ${name} skill, what it does and when to use it.`, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n`;
