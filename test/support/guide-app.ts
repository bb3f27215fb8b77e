// The application docs/getting-started.md builds, read from the guide itself: every fenced block
// captioned with a file path ("`src/greeter.ts`:" on its own line, optionally followed by the
// `<!-- example: ... -->` marker of a compiled example) is that file of the app, verbatim. The
// consumer smoke test (test/consumer/run-consumer.ts) writes these files out and installs, builds,
// tests and starts the app; test/unit/docs/getting-started-app.test.ts checks them without installing.
import { readFileSync } from "node:fs";
import path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "../..");
export const GUIDE = "docs/getting-started.md";

export interface GuideFile {
  /** Path inside the app, e.g. "src/greeter.ts". */
  path: string;
  /** The block's text, verbatim, with a final newline. */
  text: string;
  /** 1-based line of the opening fence in the guide. */
  line: number;
}

const CAPTION = /^`([A-Za-z0-9_./-]+)`:$/;
const MARKER = /^<!-- (example|excerpt): \S+ -->$/;
const FENCE = /^```(\w*)\s*$/;

/** The captioned blocks of `markdown`, in order. */
export function guideFiles(markdown: string): GuideFile[] {
  const lines = markdown.split("\n");
  const files: GuideFile[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i])) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${GUIDE}:${i + 1}: a code block is never closed`);
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === "") j--;
    if (j >= 0 && MARKER.test(lines[j])) {
      j--;
      while (j >= 0 && lines[j].trim() === "") j--;
    }
    const caption = j >= 0 ? CAPTION.exec(lines[j]) : null;
    if (caption) files.push({ path: caption[1], text: lines.slice(i + 1, end).join("\n") + "\n", line: i + 1 });
    i = end;
  }
  return files;
}

/** The app's files as docs/getting-started.md writes them. */
export function readGuideApp(): GuideFile[] {
  return guideFiles(readFileSync(path.join(REPO_ROOT, GUIDE), "utf8"));
}

/** The file name `npm pack` gives this package's tarball. */
export function packedTarballName(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  return `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
}
