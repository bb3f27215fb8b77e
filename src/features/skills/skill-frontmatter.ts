import { parse, YAMLParseError } from "yaml";
import type { JsonObject } from "../../protocol/wire-types";

/** Why a `SKILL.md` has no frontmatter the framework can serve; the message names the line when it can. */
export class FrontmatterError extends Error {
  override name = "FrontmatterError";
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The YAML frontmatter of a `SKILL.md` as a JSON object: the text between a first `---` line and
 * the next `---` line (a BOM and CRLF line ends allowed), parsed with the `yaml` library under
 * YAML 1.2's core schema (no dates, no custom tags), keys unique. Only what JSON carries is
 * accepted (finite numbers, no `__proto__` key), since the entry's frontmatter is this object
 * and a host compares it field by field with what it parses from the file.
 */
export function parseFrontmatter(bytes: Uint8Array): JsonObject {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new FrontmatterError("SKILL.md is not valid UTF-8");
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replaceAll("\r\n", "\n");
  if (!text.startsWith("---\n")) throw new FrontmatterError('line 1: SKILL.md must begin with a "---" line opening its YAML frontmatter');
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (close === null) throw new FrontmatterError('the frontmatter has no closing "---" line');
  let value: unknown;
  try {
    value = parse(rest.slice(0, close.index), { schema: "core", uniqueKeys: true, prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const line = error.linePos?.[0]?.line;
      // The YAML starts on the file's second line.
      throw new FrontmatterError(
        `${line === undefined ? "" : `line ${line + 1}: `}invalid YAML frontmatter: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:$/, "")}`,
      );
    }
    throw error;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new FrontmatterError("the frontmatter must be a YAML mapping (name: ..., description: ...)");
  const problem = notJson(value, "frontmatter");
  if (problem !== undefined) throw new FrontmatterError(problem);
  return value as JsonObject;
}

/** Where `value` holds something JSON does not carry the same way, or undefined. */
function notJson(value: unknown, at: string): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON cannot carry`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = notJson(value[i], `${at}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "__proto__") return `${at} has a "__proto__" key, which hosts refuse`;
      const problem = notJson(item, `${at}.${key}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return `${at} is not a JSON value`;
}
