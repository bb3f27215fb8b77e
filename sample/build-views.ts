// `npm run build` ends here: each sample view's page and script bundled into one HTML file beside
// the compiled sample (dist/sample/...), where the app reads it once when it is created.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { bundlePage } from "./bundle-page";

/** The repository: this file runs compiled (dist/sample/) or from its source (sample/). */
const ROOT = resolve(__dirname, __filename.endsWith(".ts") ? ".." : "../..");

const VIEWS = [
  {
    page: "sample/preferences/view/theme-preview.html",
    script: "sample/preferences/view/theme-preview-app.ts",
    out: "dist/sample/preferences/view/theme-preview.html",
  },
];

async function main(): Promise<void> {
  for (const view of VIEWS) {
    const html = await bundlePage(join(ROOT, view.page), join(ROOT, view.script));
    const out = join(ROOT, view.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, html);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
