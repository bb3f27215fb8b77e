import { matchesFormat } from "./formats";
import type { EnumOption, FormPropertySchema, StringPropertySchema } from "../protocol/form-schema";

/**
 * Checks one value against one (already subset-valid) form property and returns the name of
 * the first rule it breaks, or undefined when it fits. Used for answers and for `default`.
 * Lengths count Unicode code points, so an emoji is one character. Multi-select answers must
 * not repeat a value (reported as "uniqueItems"): a repeat would game minItems.
 *
 * @example formValueViolation({ type: "integer", maximum: 120 }, 130) // "maximum"
 */
export function formValueViolation(property: FormPropertySchema, value: unknown): string | undefined {
  switch (property.type) {
    case "string":
      if (typeof value !== "string") return "type";
      if ("enum" in property) return property.enum.includes(value) ? undefined : "enum";
      if ("oneOf" in property) return optionValues(property.oneOf).includes(value) ? undefined : "oneOf";
      return stringViolation(property, value);
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return "type";
      if (property.type === "integer" && !Number.isInteger(value)) return "type";
      if (property.minimum !== undefined && value < property.minimum) return "minimum";
      if (property.maximum !== undefined && value > property.maximum) return "maximum";
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "type";
    case "array":
      return multiSelectViolation(property, value);
  }
}

function stringViolation(property: StringPropertySchema, value: string): string | undefined {
  const length = codePointLength(value);
  if (property.minLength !== undefined && length < property.minLength) return "minLength";
  if (property.maxLength !== undefined && length > property.maxLength) return "maxLength";
  if (property.format !== undefined && !matchesFormat(property.format, value)) return "format";
  return undefined;
}

function multiSelectViolation(property: Extract<FormPropertySchema, { type: "array" }>, value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) return "type";
  const allowed = "enum" in property.items ? property.items.enum : optionValues(property.items.anyOf);
  if (!value.every((item) => allowed.includes(item))) return "enum" in property.items ? "items.enum" : "items.anyOf";
  if (new Set(value).size !== value.length) return "uniqueItems";
  if (property.minItems !== undefined && value.length < property.minItems) return "minItems";
  if (property.maxItems !== undefined && value.length > property.maxItems) return "maxItems";
  return undefined;
}

function optionValues(options: readonly EnumOption[]): string[] {
  return options.map((option) => option.const);
}

/** String length in Unicode code points (what a user counts), not UTF-16 units. */
function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}
