// One server's entry set in a host's configuration file, touching nothing else: JSON (and VS Code's
// JSONC, comments kept) through jsonc-parser's edits, TOML (Codex) by replacing only that server's
// tables. Either way the result is parsed again and everything but the entry must be as before.
import { isDeepStrictEqual } from "node:util";
import { applyEdits, format, modify, parse, printParseErrorCode, type EditResult, type ParseError } from "jsonc-parser";

type EditOperation = EditResult[number];
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { CliError } from "../cli-error";
import type { ConfigTarget } from "./hosts";

export interface Edit {
  /** The file's text after the edit (the same text when nothing changes). */
  readonly text: string;
  /** "added", "replaced", or "unchanged" (the entry is already exactly this). */
  readonly outcome: "added" | "replaced" | "unchanged";
}

export function setServer(target: ConfigTarget, existing: string | undefined, name: string, entry: Record<string, unknown>): Edit {
  return target.format === "json" ? setJson(target, existing, name, entry) : setToml(target, existing, name, entry);
}

function readJson(file: string, text: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0)
    throw new CliError(
      `${file} is not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}): fix it, then run install again; nothing was changed`,
    );
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value)))
    throw new CliError(`${file} does not hold a JSON object: nothing was changed`);
  return (value ?? {}) as Record<string, unknown>;
}

function at(root: unknown, keys: readonly string[]): unknown {
  return keys.reduce<unknown>(
    (node, key) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
    root,
  );
}

function setJson(target: ConfigTarget, existing: string | undefined, name: string, entry: Record<string, unknown>): Edit {
  const text = existing ?? "{}\n";
  const before = readJson(target.file, text);
  const keys = [...target.serversPath, name];
  const current = at(before, keys);
  if (isDeepStrictEqual(current, entry)) return { text, outcome: "unchanged" };
  const indent = /\n(\t| +)"/.exec(text)?.[1] ?? "  ";
  const formattingOptions = {
    insertSpaces: indent !== "\t",
    tabSize: indent === "\t" ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
  let edits: EditOperation[];
  if (at(before, keys.slice(0, -1)) === undefined) {
    // The objects on the way are created: jsonc-parser formats them with the entry.
    edits = modify(text, keys, entry, { formattingOptions });
  } else {
    // Into an existing object: the entry alone is inserted (or replaced), then only its text formatted,
    // so the servers beside it keep their own layout.
    const [edit] = modify(text, keys, entry, {});
    const inserted = applyEdits(text, [edit!]);
    edits = [
      {
        offset: 0,
        length: text.length,
        content: applyEdits(inserted, format(inserted, { offset: edit!.offset, length: edit!.content.length }, formattingOptions)),
      },
    ];
  }
  const after = applyEdits(text, edits);
  verify(target.file, before, readJson(target.file, after), keys, entry);
  return { text: after.endsWith("\n") ? after : `${after}\n`, outcome: current === undefined ? "added" : "replaced" };
}

/** Everything but the entry at `keys` is as before, and the entry is `entry`. */
function verify(
  file: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[],
  entry: unknown,
): void {
  const without = (root: Record<string, unknown>) => {
    const copy = structuredClone(root);
    const parent = at(copy, keys.slice(0, -1)) as Record<string, unknown> | undefined;
    if (parent !== undefined) delete parent[keys.at(-1)!];
    return copy;
  };
  const kept = isDeepStrictEqual(pruneEmpty(without(after), keys), pruneEmpty(without(before), keys));
  if (!kept || !isDeepStrictEqual(at(after, keys), entry))
    throw new CliError(
      `editing ${file} would have changed more than the server's entry; nothing was changed (add the entry by hand: docs/hosts.md)`,
    );
}

/** The objects on the way to the entry that the edit may have created empty are left out of the comparison. */
function pruneEmpty(root: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  for (let depth = keys.length - 1; depth > 0; depth--) {
    const parent = at(root, keys.slice(0, depth - 1)) as Record<string, unknown> | undefined;
    const key = keys[depth - 1]!;
    const node = parent?.[key];
    if (parent !== undefined && node !== null && typeof node === "object" && Object.keys(node).length === 0) delete parent[key];
  }
  return root;
}

/** A TOML table header line, `[a.b]` or `[[a.b]]`, with an optional comment. */
const TABLE_HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

function tableKeys(line: string): string[] | undefined {
  const match = TABLE_HEADER.exec(line);
  if (!match) return undefined;
  try {
    // The header's own key path, read by the TOML parser: `[a."b.c"]` is ["a", "b.c"].
    const keys: string[] = [];
    let node = parseToml(`[${match[1]}]`) as Record<string, unknown>;
    for (;;) {
      const names = Object.keys(node);
      if (names.length !== 1) return keys;
      keys.push(names[0]!);
      node = node[names[0]!] as Record<string, unknown>;
    }
  } catch {
    return undefined;
  }
}

function readToml(file: string, text: string): Record<string, unknown> {
  try {
    // As plain JSON: the parser's objects have no prototype, and dates become their text on both sides.
    return JSON.parse(JSON.stringify(parseToml(text))) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      `${file} is not valid TOML (${(error as Error).message.split("\n")[0]}): fix it, then run install again; nothing was changed`,
    );
  }
}

function setToml(target: ConfigTarget, existing: string | undefined, name: string, entry: Record<string, unknown>): Edit {
  const text = existing ?? "";
  const before = readToml(target.file, text);
  const keys = [...target.serversPath, name];
  const current = at(before, keys);
  if (isDeepStrictEqual(current, entry)) return { text, outcome: "unchanged" };
  const block = stringifyToml(keys.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), entry)).trim();
  const lines = text.split("\n");
  const headers = lines.map(tableKeys);
  // The server's own tables: its header and its sub-tables' headers ([mcp_servers.name.env]).
  const own = (header: string[] | undefined) => header !== undefined && keys.every((key, k) => header[k] === key);
  const start = headers.findIndex(own);
  let after: string;
  if (start < 0) {
    if (current !== undefined)
      throw new CliError(
        `${target.file} defines the server ${name} inline, not as a [${keys.join(".")}] table: edit it by hand or remove it first; nothing was changed`,
      );
    after = `${text}${text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n"}${block}\n`;
  } else {
    // The section runs to the next table that is not the server's own.
    const next = headers.findIndex((header, k) => k > start && header !== undefined && !own(header));
    let end = next < 0 ? lines.length - 1 : next - 1;
    if (next >= 0 && headers.some((header, k) => k > next && own(header)))
      throw new CliError(`${target.file} defines [${keys.join(".")}] in parts apart from each other: edit it by hand; nothing was changed`);
    // The blank lines and comments that end the section belong to what follows.
    while (end > start && /^\s*(#.*)?$/.test(lines[end]!)) end--;
    after = [...lines.slice(0, start), block, ...lines.slice(end + 1)].join("\n");
  }
  verify(target.file, before, readToml(target.file, after), keys, entry);
  return { text: after, outcome: current === undefined ? "added" : "replaced" };
}
