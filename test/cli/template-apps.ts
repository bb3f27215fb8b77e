// The template app of `roundtrip-mcp init`, written out once per combination of its variants into
// .tmp/template-apps/<name>/ (git-ignored), so that `npm test` runs each combination's own tests
// with this checkout's source (jest.config.ts maps roundtrip-mcp to src/). The files are the ones
// init writes (templateFiles), as they are.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { templateFiles, VARIANT_NAMES, type VariantName } from "../../src/cli/init/template-files";

export const TEMPLATE_APPS_DIR = path.resolve(__dirname, "../../.tmp/template-apps");

/** Every combination of the variants: none, each alone, all together. */
export function variantCombinations(): VariantName[][] {
  return VARIANT_NAMES.reduce<VariantName[][]>((all, name) => [...all, ...all.map((c) => [...c, name])], [[]]);
}

export function writeTemplateApps(): string {
  rmSync(TEMPLATE_APPS_DIR, { recursive: true, force: true });
  for (const variants of variantCombinations()) {
    const dir = path.join(TEMPLATE_APPS_DIR, variants.length === 0 ? "base" : variants.join("-"));
    for (const file of templateFiles(variants)) {
      const target = path.join(dir, ...file.path.split("/"));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(file.from, target);
    }
  }
  return TEMPLATE_APPS_DIR;
}
