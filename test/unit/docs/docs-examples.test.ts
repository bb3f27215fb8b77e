// Pins that the guides cannot rot: every fenced TypeScript block in README.md and docs/*.md is
// preceded by `<!-- example: path -->` and is exactly that file's text (the example files are
// compiled by `npm run typecheck`: tsconfig includes docs/), or by `<!-- excerpt: path -->` and
// appears, line for line (indentation aside), in that source file, which the build compiles; and
// every deployment recipe a guide shows (`<!-- recipe: deploy/... -->`) is that file verbatim.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const GUIDES = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

interface Block {
  guide: string;
  line: number;
  file?: string;
  kind?: "example" | "excerpt";
  code: string;
}

function blocks(guide: string): Block[] {
  const lines = readFileSync(path.join(ROOT, guide), "utf8").split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const marker = /^<!-- (example|excerpt): (\S+) -->$/.exec(lines[i - 1] ?? "");
    const end = lines.indexOf("```", i + 1);
    out.push({ guide, line: i + 1, kind: marker?.[1] as Block["kind"], file: marker?.[2], code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return out;
}

const all = GUIDES.flatMap(blocks);

describe("documentation examples", () => {
  it("finds TypeScript examples in the README and the guides", () => {
    expect(all.length).toBeGreaterThan(5);
    expect(new Set(all.map((b) => b.guide)).size).toBeGreaterThan(2);
  });

  it.each(all.map((b) => [`${b.guide}:${b.line}`, b] as const))(
    "%s is compiled code: an example file verbatim, or an excerpt of a source file",
    (_where, block) => {
      expect(block.file).toBeDefined();
      const file = path.join(ROOT, block.file!);
      expect(existsSync(file)).toBe(true);
      const text = readFileSync(file, "utf8");
      if (block.kind === "example") {
        expect(block.file!.startsWith("docs/examples/")).toBe(true);
        expect(block.code.trimEnd()).toBe(text.trimEnd());
      } else {
        expect(block.file!).toMatch(/^(src|sample|docs\/examples)\//);
        const normalize = (t: string) =>
          t
            .split("\n")
            .map((l) => l.trim())
            .filter((l) => l.length > 0)
            .join("\n");
        expect(normalize(text)).toContain(normalize(block.code));
      }
    },
  );
});

describe("deployment recipes in the guides", () => {
  // A recipe block (nginx, YAML, Dockerfile) preceded by `<!-- recipe: deploy/... -->` is that
  // tested file verbatim (test:nginx runs or checks every file of deploy/).
  const recipes = GUIDES.flatMap((guide) => {
    const lines = readFileSync(path.join(ROOT, guide), "utf8").split("\n");
    const found: { guide: string; line: number; file: string; code: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const marker = /^<!-- recipe: (\S+) -->$/.exec(lines[i]!);
      if (marker === null) continue;
      const end = lines.indexOf("```", i + 2);
      found.push({ guide, line: i + 1, file: marker[1]!, code: lines.slice(i + 2, end).join("\n") });
    }
    return found;
  });

  it("includes the nginx recipe the load balancer suite runs", () => {
    expect(recipes.map((r) => r.file)).toContain("deploy/nginx/mcp.conf.template");
  });

  it.each(recipes.map((r) => [`${r.guide}:${r.line}`, r] as const))("%s is the recipe file verbatim", (_where, recipe) => {
    expect(recipe.file.startsWith("deploy/")).toBe(true);
    expect(recipe.code.trimEnd()).toBe(readFileSync(path.join(ROOT, recipe.file), "utf8").trimEnd());
  });
});
