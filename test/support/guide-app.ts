// The application docs/getting-started.md builds, read from the guide itself: every fenced block
// captioned with a file path ("`src/greeter.ts`:" on its own line, optionally followed by the
// `<!-- example: ... -->` marker of a compiled example) is that file of the app, verbatim. A
// caption ending in " (ESM):" ("`package.json` (ESM):") is a file of the guide's ES-module app
// instead, which also takes the CommonJS app's `src/greeter.ts` unchanged. The
// consumer smoke test (test/consumer/run-consumer.ts) writes these files out and installs, builds,
// tests and starts the app; test/unit/docs/getting-started-app.test.ts checks them without installing.
import { readFileSync } from "node:fs";
import path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "../..");
export const GUIDE = "docs/getting-started.md";

/** Which of the guide's two apps: the CommonJS one (the guide's main app) or the ES-module one. */
export type GuideAppKind = "commonjs" | "esm";

/** The CommonJS app's files the ES-module app uses as they are. */
const SHARED_WITH_ESM = ["src/greeter.ts"];

export interface GuideFile {
  /** Path inside the app, e.g. "src/greeter.ts". */
  path: string;
  /** The block's text, verbatim, with a final newline. */
  text: string;
  /** 1-based line of the opening fence in the guide. */
  line: number;
  kind: GuideAppKind;
}

const CAPTION = /^`([A-Za-z0-9_./-]+)`( \(ESM\))?:$/;
const MARKER = /^<!-- (example|excerpt): \S+ -->$/;
const FENCE = /^```(\w*)\s*$/;

/** The captioned blocks of `markdown`, in order. */
export function guideFiles(markdown: string): GuideFile[] {
  const lines = markdown.split("\n");
  const files: GuideFile[] = [];
  // i and j stay within the loop's bounds (0 .. lines.length - 1), so each line read exists.
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${GUIDE}:${i + 1}: a code block is never closed`);
    let j = i - 1;
    while (j >= 0 && lines[j]!.trim() === "") j--;
    if (j >= 0 && MARKER.test(lines[j]!)) {
      j--;
      while (j >= 0 && lines[j]!.trim() === "") j--;
    }
    const caption = j >= 0 ? CAPTION.exec(lines[j]!) : null;
    if (caption)
      files.push({
        path: caption[1]!,
        text: lines.slice(i + 1, end).join("\n") + "\n",
        line: i + 1,
        kind: caption[2] ? "esm" : "commonjs",
      });
    i = end;
  }
  return files;
}

/** One of the guide's apps (the CommonJS one by default), its files as docs/getting-started.md writes them. */
export function readGuideApp(kind: GuideAppKind = "commonjs"): GuideFile[] {
  const all = guideFiles(readFileSync(path.join(REPO_ROOT, GUIDE), "utf8"));
  const own = all.filter((f) => f.kind === kind);
  if (kind === "commonjs") return own;
  return [...own, ...all.filter((f) => f.kind === "commonjs" && SHARED_WITH_ESM.includes(f.path))];
}

/** The file name `npm pack` gives this package's tarball. */
export function packedTarballName(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  return `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
}
