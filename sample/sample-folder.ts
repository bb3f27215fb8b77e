import { existsSync } from "node:fs";
import path from "node:path";

/**
 * A folder that sits beside a sample's sources (its skills), from wherever the sample runs: the
 * TypeScript sources (ts-node, jest) or the build (`dist/sample/...`, which holds compiled code
 * only, so the folder is found in the sources beside it).
 *
 * @example sampleFolder(__dirname, "skills")
 */
export function sampleFolder(dirname: string, name: string): string {
  const beside = path.join(dirname, name);
  if (existsSync(beside)) return beside;
  const parts = dirname.split(path.sep);
  const dist = parts.lastIndexOf("dist");
  const source = dist === -1 ? beside : path.join(parts.slice(0, dist).join(path.sep) || path.sep, ...parts.slice(dist + 1), name);
  if (!existsSync(source)) throw new Error(`sample folder ${name} not found beside ${dirname} nor at ${source}`);
  return source;
}
