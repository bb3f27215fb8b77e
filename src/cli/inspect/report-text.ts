// The report of `roundtrip-mcp inspect` for a person: each list entry with its descriptor's
// fields, the schemas in full, and what only the declarations say (questions, scopes, features).
import type { ComponentDescription, JsonObject } from "roundtrip-mcp";
import type { AppReport, ListedEntry } from "./app-report";

export function reportText(report: AppReport): string {
  const lines: string[] = [];
  const { server, discover } = report;
  lines.push(`${server.title ?? server.name} ${server.version}${server.title ? ` (${server.name})` : ""}`);
  lines.push(`  protocol versions: ${((discover.supportedVersions as string[] | undefined) ?? []).join(", ")}`);
  const capabilities = (discover.capabilities ?? {}) as JsonObject;
  lines.push(
    `  capabilities: ${
      Object.keys(capabilities)
        .filter((k) => k !== "extensions")
        .join(", ") || "none"
    }`,
  );
  const extensions = Object.entries((capabilities.extensions ?? {}) as JsonObject);
  lines.push(`  extensions: ${extensions.length === 0 ? "none" : ""}`.trimEnd());
  for (const [id, settings] of extensions) lines.push(`    ${id}  ${JSON.stringify(settings)}`);
  lines.push(`  features: ${report.features.join(", ")}`);
  if (typeof discover.instructions === "string") lines.push(`  instructions: ${discover.instructions}`);
  section(
    lines,
    "Tools",
    report.tools,
    (d) => [String(d.name), d.description],
    (d) => schemaLines(d),
  );
  section(
    lines,
    "Resources",
    report.resources,
    (d) => [String(d.uri), d.name, d.mimeType, d.description],
    () => [],
  );
  section(
    lines,
    "Resource templates",
    report.resourceTemplates,
    (d) => [String(d.uriTemplate), d.name, d.mimeType, d.description],
    () => [],
  );
  section(
    lines,
    "Prompts",
    report.prompts,
    (d) => [String(d.name), d.description],
    (d) => promptArguments(d),
  );
  for (const [feature, facts] of Object.entries(report.featureFacts)) lines.push("", feature, ...factLines(facts).map((l) => `  ${l}`));
  return lines.join("\n");
}

function section(
  lines: string[],
  title: string,
  entries: readonly ListedEntry[],
  head: (descriptor: JsonObject) => unknown[],
  body: (descriptor: JsonObject) => string[],
): void {
  lines.push("", `${title} (${entries.length})`);
  for (const { descriptor, component } of entries) {
    const [name, ...rest] = head(descriptor);
    const extra = rest.filter((v) => typeof v === "string" && v !== "").map((v) => (v === rest.at(-1) ? `"${String(v)}"` : String(v)));
    lines.push(`  ${name}${extra.length > 0 ? `  ${extra.join("  ")}` : ""}${component ? `  [${component.implementation}]` : ""}`);
    lines.push(...body(descriptor).map((line) => `    ${line}`));
    for (const [key, value] of Object.entries(descriptor)) {
      if (["annotations", "_meta", "icons", "title", "execution"].includes(key)) lines.push(`    ${key}: ${JSON.stringify(value)}`);
    }
    if (component) lines.push(...componentLines(component).map((line) => `    ${line}`));
  }
}

function schemaLines(descriptor: JsonObject): string[] {
  const lines = [`input: ${indent(JSON.stringify(descriptor.inputSchema, null, 2))}`];
  if (descriptor.outputSchema !== undefined) lines.push(`output: ${indent(JSON.stringify(descriptor.outputSchema, null, 2))}`);
  return lines;
}

function promptArguments(descriptor: JsonObject): string[] {
  const args = (descriptor.arguments ?? []) as { name: string; required?: boolean; description?: string }[];
  return args.length === 0
    ? []
    : [
        `arguments: ${args.map((a) => `${a.name}${a.required ? " (required)" : ""}${a.description ? ` "${a.description}"` : ""}`).join(", ")}`,
      ];
}

function componentLines(component: ComponentDescription): string[] {
  const lines: string[] = [];
  if (component.scopes.length > 0) lines.push(`scopes: ${component.scopes.join(", ")} (checked behind OAuth)`);
  if (component.questions.length > 0) {
    lines.push("asks, in this order:");
    for (const q of component.questions) {
      const what = q.mode === "computed" ? "computed from earlier answers" : q.mode;
      const choices = choicesOf(q.requestedSchema);
      lines.push(
        `  round ${q.round}  ${q.key}  ${what}  ${q.message !== undefined ? `"${q.message}"` : "(message computed from earlier answers)"}` +
          `${choices ? `  choices: ${choices}` : ""}${q.url ? `  url: ${q.url}` : ""}${q.after.length > 0 ? `  after: ${q.after.join(", ")}` : ""}` +
          `  on decline: ${q.onDecline}`,
      );
      if (q.requestedSchema !== undefined && !choices) lines.push(`    form: ${JSON.stringify(q.requestedSchema)}`);
    }
  }
  if (component.carriesState) lines.push("state: its rounds carry sealed requestState");
  for (const [feature, facts] of Object.entries(component.features))
    lines.push(`${feature}:`, ...factLines(facts).map((line) => `  ${line}`));
  return lines;
}

type Fact = JsonObject[string];

/**
 * What a feature says (`describe`, `describeFeature`), for a person, whatever the feature: a
 * line per key; a list of plain values, or an object of them, on its line; a list of objects as
 * items (`- `), each key on its own line; anything deeper indented below its key.
 */
function factLines(facts: JsonObject): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(facts)) {
    if (flat(value)) lines.push(`${key}: ${inline(value)}`);
    else if (Array.isArray(value)) {
      lines.push(`${key} (${value.length}):`);
      for (const item of value) {
        const [first = "", ...rest] = isObject(item) ? factLines(item) : [inline(item)];
        lines.push(`  - ${first}`, ...rest.map((line) => `    ${line}`));
      }
    } else lines.push(`${key}:`, ...factLines(value as JsonObject).map((line) => `  ${line}`));
  }
  return lines;
}

function isObject(value: Fact): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain value, a list of them, or an object of them: one line. */
function flat(value: Fact): boolean {
  const plain = (v: Fact) =>
    v === null || typeof v !== "object" || (Array.isArray(v) && v.every((i) => i === null || typeof i !== "object"));
  return plain(value) || (isObject(value) && Object.values(value).every(plain));
}

function inline(value: Fact): string {
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.map((v) => inline(v)).join(", ");
  if (isObject(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? "(none)" : entries.map(([k, v]) => `${k}: ${inline(v)}`).join("; ");
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A one-field form's choices, as a client shows them. */
function choicesOf(schema: JsonObject | undefined): string | undefined {
  const properties = Object.values((schema?.properties ?? {}) as Record<string, JsonObject>);
  if (properties.length !== 1) return undefined;
  const field = properties[0]!;
  const values = (field.enum as unknown[] | undefined) ?? (field.oneOf as JsonObject[] | undefined)?.map((o) => o.const);
  return values === undefined ? undefined : values.map(String).join(" | ");
}

function indent(text: string): string {
  return text.split("\n").join("\n      ");
}
