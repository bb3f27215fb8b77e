// Bundles a page's TypeScript into the page itself: one HTML file with its script inline, as an
// MCP Apps view must be (a host loads the document alone, in a sandboxed iframe). esbuild runs
// locally from node_modules: nothing is fetched.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

/** Where the script goes in the page: replaced by `<script type="module">…</script>`. */
export const SCRIPT_MARKER = "<!-- view script -->";

/** The page (`page`, an HTML file holding SCRIPT_MARKER once) with `script` and everything it imports bundled in. */
export async function bundlePage(page: string, script: string): Promise<string> {
  const html = readFileSync(page, "utf8");
  if (html.split(SCRIPT_MARKER).length !== 2) throw new Error(`${page}: expected the marker ${SCRIPT_MARKER} exactly once`);
  const bundled = await build({
    entryPoints: [script],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  // `</script` inside the code would end the element early; `<\/script` means the same to JavaScript.
  const code = bundled.outputFiles[0]!.text.replace(/<\/(script)/gi, "<\\/$1");
  return html.replace(SCRIPT_MARKER, () => `<script type="module">\n${code}</script>`);
}
