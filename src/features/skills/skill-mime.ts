/** Mime types of the files skills usually hold, by extension (lower case); anything else is `application/octet-stream`. */
const BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ["md", "text/markdown"],
  ["markdown", "text/markdown"],
  ["txt", "text/plain"],
  ["json", "application/json"],
  ["yaml", "application/yaml"],
  ["yml", "application/yaml"],
  ["toml", "application/toml"],
  ["csv", "text/csv"],
  ["xml", "application/xml"],
  ["html", "text/html"],
  ["css", "text/css"],
  ["js", "text/javascript"],
  ["mjs", "text/javascript"],
  ["cjs", "text/javascript"],
  ["ts", "text/typescript"],
  ["py", "text/x-python"],
  ["sh", "application/x-sh"],
  ["bash", "application/x-sh"],
  ["sql", "application/sql"],
  ["svg", "image/svg+xml"],
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
  ["pdf", "application/pdf"],
  ["zip", "application/zip"],
  ["gz", "application/gzip"],
]);

/** The mime type of a skill file, from its name's extension. */
export function mimeTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  if (dot <= 0) return "application/octet-stream";
  return BY_EXTENSION.get(fileName.slice(dot + 1).toLowerCase()) ?? "application/octet-stream";
}
