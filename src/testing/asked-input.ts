import type { FormSchema } from "../protocol/form-schema";
import type { JsonObject } from "../protocol/wire-types";
import type { WireInputRequest } from "./wire-messages";

/** What kind of input a request asks for. */
export type AskedKind = "form" | "url" | "sampling" | "roots";

/**
 * One input request of an `input_required` round, under its key, with readers for what tests
 * check most: the message, the form's fields and choices, the URL. `request` is the exact wire
 * entry.
 *
 * @example expect(round1.asked("color").choices).toEqual(["red", "green", "blue"]);
 */
export class AskedInput {
  constructor(
    /** The key the server chose; answers go under the same key. */
    readonly key: string,
    /** The input request exactly as received (`{ method, params }`). */
    readonly request: WireInputRequest,
  ) {}

  get method(): WireInputRequest["method"] {
    return this.request.method;
  }

  /** "form" or "url" for elicitation (a missing `mode` means form), "sampling" or "roots". */
  get kind(): AskedKind {
    switch (this.request.method) {
      case "elicitation/create":
        return this.request.params?.mode === "url" ? "url" : "form";
      case "sampling/createMessage":
        return "sampling";
      default:
        return "roots";
    }
  }

  /** The request's params (`{}` for a roots request without params). */
  get params(): JsonObject {
    return (this.request.params ?? {}) as JsonObject;
  }

  /** The text shown to the user (elicitation only). */
  get message(): string | undefined {
    return this.request.method === "elicitation/create" ? this.request.params.message : undefined;
  }

  /** The URL to open (URL-mode elicitation only). */
  get url(): string | undefined {
    return this.kind === "url" ? (this.request.params as { url: string }).url : undefined;
  }

  /** The form's `requestedSchema` (form-mode elicitation only). */
  get schema(): FormSchema<JsonObject> | undefined {
    return this.kind === "form" ? (this.request.params as { requestedSchema: FormSchema<JsonObject> }).requestedSchema : undefined;
  }

  /** The form's property names, in order (empty for anything but a form). */
  get fields(): string[] {
    return Object.keys(this.schema?.properties ?? {});
  }

  /** The form's required property names. */
  get required(): string[] {
    return [...(this.schema?.required ?? [])];
  }

  /**
   * The values offered by a form with a single field: its `enum`, `oneOf` consts, or for a
   * multi-select its `items.enum` / `items.anyOf` consts. Undefined when the form has several
   * fields (use `choicesOf`) or the field offers no choices.
   */
  get choices(): string[] | undefined {
    const fields = this.fields;
    return fields.length === 1 ? this.choicesOf(fields[0]!) : undefined;
  }

  /**
   * The values a form field offers (see `choices`); undefined for a free field.
   *
   * @example expect(asked.choicesOf("style")).toEqual(["navy", "sky"]);
   */
  choicesOf(field: string): string[] | undefined {
    const property = this.schema?.properties[field];
    if (property === undefined) {
      throw new Error(`asked("${this.key}").choicesOf: the form has no field "${field}" (fields: ${this.fields.join(", ") || "none"})`);
    }
    const single = optionValues(property.enum, property.oneOf);
    if (single !== undefined) return single;
    const items = property.items as JsonObject | undefined;
    return items === undefined ? undefined : optionValues(items.enum, items.anyOf);
  }

  /** The exact wire entry, for `toEqual` against a literal. */
  toJSON(): WireInputRequest {
    return this.request;
  }
}

function optionValues(enumValues: unknown, titled: unknown): string[] | undefined {
  if (Array.isArray(enumValues)) return enumValues.map(String);
  if (Array.isArray(titled)) return titled.map((option) => String((option as { const?: unknown }).const));
  return undefined;
}
