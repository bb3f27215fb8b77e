/* global process */
// Lints snippets of code with the project's ESLint config, outside jest (whose module loader cannot
// import the flat config, an ES module). Reads JSON on stdin: { snippets: [{ code, file }], files: [globs] };
// prints JSON: { snippets: [[{ ruleId, message }]], files: [["<path>:<line> <message>"]] }.
import { ESLint } from "eslint";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = process.cwd();
const { snippets, files } = JSON.parse(readFileSync(0, "utf8"));
const eslint = new ESLint({ cwd: root });
const out = { snippets: [], files: [] };
for (const { code, file } of snippets) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  out.snippets.push(result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
if (files.length > 0) {
  const results = await eslint.lintFiles(files);
  out.files = results.map((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`));
}
process.stdout.write(JSON.stringify(out));
