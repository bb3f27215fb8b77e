import * as classValidator from "class-validator";

/**
 * class-validator's decorators by lower-case name ("isuuid" -> "IsUUID"), read from its own
 * exports, so a message names the decorator exactly as the user imports it.
 */
const DECORATORS: ReadonlyMap<string, string> = new Map(
  Object.entries(classValidator)
    .filter(([name, value]) => /^[A-Z]/.test(name) && typeof value === "function")
    .map(([name]) => [name.toLowerCase(), name]),
);

/**
 * The exported decorator that records a constraint name: "isUuid" -> "IsUUID", "isLength" ->
 * "Length" (class-validator names some constraints "is" + the decorator). Undefined for a name
 * that is not one of class-validator's (a custom constraint).
 *
 * @example decoratorName("isIso8601") // "IsISO8601"
 */
export function decoratorName(constraint: string): string | undefined {
  const lower = constraint.toLowerCase();
  return DECORATORS.get(lower) ?? (lower.startsWith("is") ? DECORATORS.get(lower.slice(2)) : undefined);
}
