// Validators for the discovery documents, against the published schemas copied into
// test/support/spec (README.md there names each one's source, revision and sha256):
// - a server card against the SEP-2127 draft's v1 schema (`$defs/ServerCard`, JSON Schema 2020-12);
// - a server.json against the MCP Registry's 2025-12-11 schema (draft-07).
// Formats (uri) are checked (ajv-formats).
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

export const SERVER_CARD_SCHEMA_FILE = path.join(__dirname, "spec", "server-card-v1.schema.json");
export const REGISTRY_SCHEMA_FILE = path.join(__dirname, "spec", "registry-server-2025-12-11.schema.json");

/** The errors of `document` against a schema, one line each (empty when it validates). */
export type DocumentCheck = (document: unknown) => string[];

function checker(
  validate: ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null },
): DocumentCheck {
  return (document) => (validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`));
}

let card: DocumentCheck | undefined;
let registry: DocumentCheck | undefined;

/** Checks a server card against the draft's ServerCard definition. */
export function serverCardErrors(document: unknown): string[] {
  if (card === undefined) {
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(JSON.parse(readFileSync(SERVER_CARD_SCHEMA_FILE, "utf8")), "server-card");
    card = checker(ajv.compile({ $ref: "server-card#/$defs/ServerCard" }));
  }
  return card(document);
}

/** Checks a server.json against the registry's schema. */
export function serverJsonErrors(document: unknown): string[] {
  if (registry === undefined) {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    registry = checker(ajv.compile(JSON.parse(readFileSync(REGISTRY_SCHEMA_FILE, "utf8"))));
  }
  return registry(document);
}
