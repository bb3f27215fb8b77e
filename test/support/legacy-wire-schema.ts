/**
 * Test-only validation of what a server sends a 2025-era client, against the official schema of
 * the revision that client negotiated: 2025-11-25 or 2025-06-18 (`spec/schema-2025-*.json`, shipped
 * in the repository; see the README beside them). `wire-schema.ts` does the same for 2026-07-28.
 *
 * The 2025 schemas leave results open (`Result` has `additionalProperties: {}`), so fields a later
 * revision added pass the schema alone. The validators here add what each revision's shape says:
 * - no result carries what 2026-07-28 added: `resultType`, `ttlMs`, `cacheScope`, and no
 *   `inputRequests` / `requestState` (a 2025 client is asked with requests of its own);
 * - to a 2025-06-18 client: a form `elicitation/create` without `mode` or `elicitationId` (both came
 *   with 2025-11-25), and no `icons` or `execution` on listed tools, resources, templates and prompts;
 *   a URL question only to a client that declared `elicitation.url` at initialize (Codex does at
 *   2025-06-18), checked against 2025-11-25's ElicitRequest: that revision defines the only shape
 *   a URL question has, which 2025-06-18's schema has no room for;
 * - a result is checked against the $def of the method it answers; a server request and a
 *   notification against the $def of their method (the members of ServerRequest and
 *   ServerNotification), an error response against the error envelope.
 *
 * @example validateLegacyServerMessage(message, "2025-06-18", "tools/list");
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import { WireSchemaError } from "./wire-schema";

export type LegacyRevision = "2025-06-18" | "2025-11-25";
export const LEGACY_REVISIONS: readonly LegacyRevision[] = ["2025-06-18", "2025-11-25"];

/** The official schemas, byte-identical to the published files (origin in spec/README.md). */
export const LEGACY_SCHEMA_PATHS: Readonly<Record<LegacyRevision, string>> = Object.freeze({
  "2025-06-18": path.resolve(__dirname, "spec/schema-2025-06-18.json"),
  "2025-11-25": path.resolve(__dirname, "spec/schema-2025-11-25.json"),
});

/** Result $defs by the method of the request they answer (the same names in both revisions). */
export const LEGACY_RESULT_DEFS: Readonly<Record<string, string>> = Object.freeze({
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "logging/setLevel": "EmptyResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
});

/** Fields 2026-07-28 added to results: none may reach a 2025 client. */
const MODERN_RESULT_FIELDS = ["resultType", "ttlMs", "cacheScope", "inputRequests", "requestState"];
/** List results whose entries 2025-06-18 describes without `icons` (and tools without `execution`). */
const LISTED: Readonly<Record<string, string>> = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
};

type JsonObject = Record<string, unknown>;

interface Compiled {
  validate: (def: string) => ValidateFunction;
  /** ServerRequest and ServerNotification members by method. */
  byMethod: ReadonlyMap<string, string>;
  defs: ReadonlySet<string>;
}

const compiled = new Map<LegacyRevision, Compiled>();

function load(revision: LegacyRevision): Compiled {
  const known = compiled.get(revision);
  if (known) return known;
  const file = LEGACY_SCHEMA_PATHS[revision];
  if (!fs.existsSync(file))
    throw new Error(
      `MCP ${revision} schema not found at ${file}. It ships in the repository (test/support/spec/); restore it with git checkout.`,
    );
  const schema = JSON.parse(fs.readFileSync(file, "utf8")) as JsonObject;
  // 2025-06-18 is draft-07 (`definitions`), 2025-11-25 draft 2020-12 (`$defs`).
  const draft07 = revision === "2025-06-18";
  const defsKey = draft07 ? "definitions" : "$defs";
  const defs = schema[defsKey] as Record<string, JsonObject>;
  const options = { allErrors: true, allowUnionTypes: true, validateFormats: false, strict: false };
  const ajv = draft07 ? new Ajv(options) : new Ajv2020(options);
  ajv.addSchema(schema, "mcp");
  const validators = new Map<string, ValidateFunction>();
  const byMethod = new Map<string, string>();
  for (const union of ["ServerRequest", "ServerNotification"]) {
    for (const member of (defs[union]!.anyOf ?? []) as { $ref: string }[]) {
      const name = member.$ref.split("/").pop()!;
      const method = ((defs[name]!.properties as JsonObject).method as { const?: string }).const;
      if (method !== undefined) byMethod.set(method, name);
    }
  }
  const entry: Compiled = {
    byMethod,
    defs: new Set(Object.keys(defs)),
    validate: (def) => {
      let validate = validators.get(def);
      if (!validate) {
        if (!defs[def]) throw new Error(`legacy-wire-schema: no $def named ${def} in the ${revision} schema`);
        validate = ajv.compile({ $ref: `mcp#/${defsKey}/${def}` });
        validators.set(def, validate);
      }
      return validate;
    },
  };
  compiled.set(revision, entry);
  return entry;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  return text.length > 4000 ? `${text.slice(0, 4000)}\n... (${text.length - 4000} more characters)` : text;
}

function fail(what: string, reasons: string[], value: unknown, errors: readonly ErrorObject[] = []): never {
  throw new WireSchemaError(`${what}:\n${reasons.map((r) => `  - ${r}`).join("\n")}\nmessage:\n${describe(value)}`, errors);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates `value` against `#/<defs>/<def>` of the `revision` schema; throws WireSchemaError on failure. */
export function validateLegacyDef(revision: LegacyRevision, def: string, value: unknown): void {
  const validate = load(revision).validate(def);
  if (!validate(value)) {
    const errors = validate.errors ?? [];
    fail(
      `not a valid ${revision} ${def}`,
      errors.map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`),
      value,
      errors,
    );
  }
}

/** A result for `method`: its $def, and none of the fields later revisions added. */
export function validateLegacyResult(revision: LegacyRevision, method: string, result: unknown): void {
  const def = LEGACY_RESULT_DEFS[method];
  if (def === undefined) throw new Error(`legacy-wire-schema: no result $def known for ${method}`);
  if (!isObject(result)) fail(`${method} result`, ["expected a JSON object"], result);
  const reasons = MODERN_RESULT_FIELDS.filter((key) => key in result).map(
    (key) => `${key} does not exist in ${revision} (2026-07-28 added it)`,
  );
  const listKey = LISTED[method];
  if (revision === "2025-06-18" && listKey !== undefined && Array.isArray(result[listKey])) {
    (result[listKey] as unknown[]).forEach((entry, i) => {
      for (const key of ["icons", "execution"])
        if (isObject(entry) && key in entry) reasons.push(`${listKey}[${i}].${key} does not exist in 2025-06-18 (2025-11-25 added it)`);
    });
  }
  if (reasons.length > 0) fail(`${method} result is not in the ${revision} shape`, reasons, result);
  validateLegacyDef(revision, def, result);
}

/**
 * Validates one message a server sent a client that negotiated `revision`. For a response, pass
 * the method of the request it answers; `declared` is what the client declared at initialize.
 */
export function validateLegacyServerMessage(
  message: unknown,
  revision: LegacyRevision,
  requestMethod?: string,
  declared: JsonObject = {},
): void {
  if (!isObject(message)) fail("server message", ["expected a JSON object"], message);
  const c = load(revision);
  validateLegacyDef(revision, "JSONRPCMessage", message);
  if (revision === "2025-06-18" && message.method === "elicitation/create" && isObject(message.params) && message.params.mode === "url") {
    const elicitation = declared.elicitation;
    if (!isObject(elicitation) || !isObject(elicitation.url))
      fail("elicitation/create", ["a URL question to a 2025-06-18 client that did not declare elicitation.url at initialize"], message);
    validateLegacyDef("2025-11-25", "ElicitRequest", message);
    return;
  }
  if (typeof message.method === "string") {
    const def = c.byMethod.get(message.method);
    if (def === undefined) fail("server message", [`${message.method} is not a server request or notification of ${revision}`], message);
    validateLegacyDef(revision, def, message);
    const params = message.params;
    if (revision === "2025-06-18" && message.method === "elicitation/create" && isObject(params)) {
      const added = ["mode", "elicitationId"].filter((key) => key in params);
      if (added.length > 0)
        fail(
          "elicitation/create",
          added.map((key) => `params.${key} does not exist in 2025-06-18 (2025-11-25 added it)`),
          message,
        );
    }
    return;
  }
  if ("error" in message) {
    validateLegacyDef(revision, revision === "2025-06-18" ? "JSONRPCError" : "JSONRPCErrorResponse", message);
    return;
  }
  validateLegacyDef(revision, revision === "2025-06-18" ? "JSONRPCResponse" : "JSONRPCResultResponse", message);
  if (requestMethod !== undefined) validateLegacyResult(revision, requestMethod, message.result);
}
