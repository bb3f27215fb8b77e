/** The four string formats a form property may declare. */
export type FormFormat = "email" | "uri" | "date" | "date-time";

/** One option of a titled enum: the value sent back (`const`) and its display label. */
export type EnumOption = { const: string; title: string };

/** A free-text field. */
export type StringPropertySchema = {
  type: "string";
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: FormFormat;
  default?: string;
};

/** A number field; `integer` only accepts whole numbers. */
export type NumberPropertySchema = {
  type: "number" | "integer";
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
};

export type BooleanPropertySchema = { type: "boolean"; title?: string; description?: string; default?: boolean };

/** Pick one value: untitled (`enum`) or titled (`oneOf` of `{const, title}`). */
export type SingleSelectPropertySchema =
  | { type: "string"; title?: string; description?: string; enum: string[]; default?: string }
  | { type: "string"; title?: string; description?: string; oneOf: EnumOption[]; default?: string };

/** Pick several values: untitled (`items.enum`) or titled (`items.anyOf` of `{const, title}`). */
export type MultiSelectPropertySchema = {
  type: "array";
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: "string"; enum: string[] } | { anyOf: EnumOption[] };
  default?: string[];
};

/** One property of a form: exactly one of the spec's primitive schema shapes. */
export type FormPropertySchema =
  StringPropertySchema | NumberPropertySchema | BooleanPropertySchema | SingleSelectPropertySchema | MultiSelectPropertySchema;

/**
 * The restricted flat `requestedSchema` of a form elicitation (MCP 2026-07-28
 * `ElicitRequestFormParams.requestedSchema`): the one form schema type, for `Elicitation.form`,
 * `@Elicit` and the wire alike. `FormSchema<JsonObject>` is the same shape before it has been
 * checked against the subset (what `Elicitation.form` and `@Elicit` accept and check).
 *
 * @example const schema: FormSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
 */
export type FormSchema<P = FormPropertySchema> = {
  $schema?: string;
  type: "object";
  properties: Record<string, P>;
  required?: string[];
};

/** The values a form answer may carry (ElicitResult.content). */
export type ElicitationContent = Record<string, string | number | boolean | string[]>;
