import { getMetadataStorage, ValidationTypes, type ValidationArguments } from "class-validator";
import { PLAIN_TO_CLASS, transformerMetadata } from "./transformer-metadata";

/**
 * Accepts a DTO's valid input without class-transformer and class-validator: the instance those
 * two would have built, or undefined when it cannot tell (the input is not simple enough, or a
 * rule failed), and the caller then runs the two libraries, which decide and word every error.
 * So the fast path never refuses anything: it can only say yes to what they would have said yes
 * to, and every refusal (and its message) is theirs.
 */
export type FastPath = (plain: Readonly<Record<string, unknown>>) => object | undefined;

/** What the fast path reads of class-validator's ValidationMetadata and ConstraintMetadata. */
interface RuleMetadata {
  readonly type: string;
  readonly propertyName: string;
  readonly constraints: unknown[];
  readonly constraintCls: Function;
  readonly each?: boolean;
  readonly validateIf?: (object: object, value: unknown) => boolean;
}
interface Constraint {
  validate(value: unknown, args: ValidationArguments): unknown;
}
interface ConstraintEntry {
  readonly async: boolean;
  readonly instance: Constraint;
}

/** One rule of a property (its decorator), with the constraint objects that check it. */
interface Rule {
  readonly metadata: RuleMetadata;
  readonly constraints: readonly (() => Constraint)[];
}

interface PropertyRules {
  readonly name: string;
  /** IsOptional / ValidateIf conditions: when one is false the property is not validated. */
  readonly conditions: readonly ((object: object, value: unknown) => unknown)[];
  /** IsDefined rules, then the others, in class-validator's order. */
  readonly rules: readonly Rule[];
}

const { CUSTOM_VALIDATION, CONDITIONAL_VALIDATION, IS_DEFINED, WHITELIST } = ValidationTypes;
const HANDLED_TYPES = new Set([CUSTOM_VALIDATION, CONDITIONAL_VALIDATION, IS_DEFINED, WHITELIST]);
/**
 * The class `registerDecorator` makes for a decorator given as a `{ validate }` object (every
 * built-in decorator, and ValidateBy-style custom ones): its instances hold no state, so one
 * serves for every call. A constraint class of the app's own is resolved through class-validator's
 * container on every call, as class-validator does.
 */
const STATELESS_WRAPPER =
  /^class CustomConstraint \{\s*validate\(value, validationArguments\) \{\s*return validator\.validate\(value, validationArguments\);\s*\}/;
const UNSURE = Symbol("unsure");

/**
 * Compiles the fast path of `dto`, or returns undefined when class-transformer or class-validator
 * would do something it does not reproduce. A DTO qualifies when:
 * - class-transformer has nothing of its own to do: no `@Type`, `@Transform`, `@Expose` or
 *   `@Exclude` on the class or its ancestors, and no property that an accessor or a method of the
 *   prototype chain shadows (class-transformer skips those);
 * - every class-validator rule is a property rule it runs synchronously (IsString, IsInt, Min,
 *   IsIn, IsEmail, ..., custom constraints not marked async), IsDefined, IsOptional, ValidateIf or
 *   Allow: no nested or promise validation.
 * The rules run are class-validator's own constraint objects, with the same arguments, in the same
 * order, under the options the framework validates with (whitelist, forbidNonWhitelisted,
 * forbidUnknownValues, no groups). The input it takes is an object whose every key is a rule's
 * property and whose values are JSON primitives or arrays of them (what class-transformer copies
 * as they are, arrays into new arrays); anything else is left to the libraries.
 */
export function compileFastPath(dto: Function): FastPath | undefined {
  try {
    return compile(dto);
  } catch {
    // Whatever the metadata or the app's constraint container throws here, the libraries meet
    // again (and report) on their path; the DTO simply has no fast path.
    return undefined;
  }
}

function compile(dto: Function): FastPath | undefined {
  const storage = getMetadataStorage();
  // The lookup class-validator's validate() makes for an instance of dto, with no groups.
  const metadatas: RuleMetadata[] = storage.getTargetValidationMetadatas(
    dto,
    // as unknown as: class-validator's validate() passes undefined here, which its declared signature (string) does not allow.
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
  if (metadatas.length === 0) return undefined;
  const byProperty = new Map<string, RuleMetadata[]>();
  for (const metadata of metadatas) {
    if (!HANDLED_TYPES.has(metadata.type)) return undefined;
    const list = byProperty.get(metadata.propertyName);
    if (list) list.push(metadata);
    else byProperty.set(metadata.propertyName, [metadata]);
  }
  if (!transformsNothing(dto, [...byProperty.keys()])) return undefined;
  const properties: PropertyRules[] = [];
  for (const [name, list] of byProperty) {
    if (!plainlyAssignable(dto, name)) return undefined;
    const rules: Rule[] = [];
    for (const metadata of [...list.filter((m) => m.type === IS_DEFINED), ...list.filter((m) => m.type === CUSTOM_VALIDATION)]) {
      const entries: ConstraintEntry[] = storage.getTargetValidatorConstraints(metadata.constraintCls);
      if (entries.some((entry) => entry.async)) return undefined;
      rules.push({ metadata, constraints: entries.map((entry) => constraintOf(metadata.constraintCls, entry)) });
    }
    const conditions = list
      .filter((m) => m.type === CONDITIONAL_VALIDATION)
      .map((m) => m.constraints[0] as PropertyRules["conditions"][number]);
    properties.push({ name, conditions, rules });
  }
  const known = new Set(byProperty.keys());
  const Dto = dto as new () => Record<string, unknown>;
  // What class-validator reads as `object.constructor.name` for an instance whose prototype is Dto's.
  const constructor = (Dto.prototype as { constructor?: Function }).constructor;
  const targetName = constructor ? constructor.name : undefined;
  return (plain) => {
    const values: unknown[] = [];
    const keys = Object.keys(plain);
    for (const key of keys) {
      const value = known.has(key) ? jsonCopy(plain[key]) : UNSURE;
      if (value === UNSURE) return undefined;
      values.push(value);
    }
    try {
      // As plainToInstance: a new instance, then each key of the input assigned in its order.
      const instance = new Dto();
      if (Object.getPrototypeOf(instance) !== Dto.prototype) return undefined;
      for (const [i, key] of keys.entries()) {
        if (instance[key] instanceof Function) return undefined;
        instance[key] = values[i];
      }
      // Whitelist: a property without rules (a field the constructor set) is refused by the libraries.
      for (const key of Object.keys(instance)) if (!known.has(key)) return undefined;
      for (const property of properties) if (!satisfies(property, instance, targetName)) return undefined;
      return instance;
    } catch {
      // The same input throws again on the libraries' path, which reports it as before.
      return undefined;
    }
  };
}

/** Whether class-validator finds no error on `object`'s property (its conditions and rules, as `performValidations`). */
function satisfies(property: PropertyRules, object: Record<string, unknown>, targetName: string | undefined): boolean {
  const value = object[property.name];
  let validated = true;
  // Every condition runs, as class-validator maps them all before combining.
  for (const condition of property.conditions) validated = Boolean(condition(object, value)) && validated;
  if (!validated) return true;
  for (const { metadata, constraints } of property.rules) {
    if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
    for (const constraintOf of constraints) {
      const args: ValidationArguments = {
        targetName: targetName as string,
        property: metadata.propertyName,
        object,
        value,
        constraints: metadata.constraints,
      };
      const constraint = constraintOf();
      if (!metadata.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map)) {
        if (!passed(constraint.validate(value, args))) return false;
        continue;
      }
      const items = value instanceof Map ? Array.from(value.values()) : Array.isArray(value) ? value : Array.from(value as Set<unknown>);
      for (const item of items) if (!passed(constraint.validate(item, args))) return false;
    }
  }
  return true;
}

/** A truthy, synchronous verdict; a promise (an async constraint) is left to class-validator. */
function passed(result: unknown): boolean {
  return Boolean(result) && !(typeof result === "object" && typeof (result as { then?: unknown }).then === "function");
}

function constraintOf(cls: Function, entry: ConstraintEntry): () => Constraint {
  if (!STATELESS_WRAPPER.test(Function.prototype.toString.call(cls))) return () => entry.instance;
  const instance = entry.instance;
  return () => instance;
}

/** A JSON primitive as it is, an array of them as a new array (as class-transformer copies them); else UNSURE. */
function jsonCopy(value: unknown): unknown {
  if (isPrimitive(value)) return value;
  if (!Array.isArray(value)) return UNSURE;
  const copy: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    // A hole is skipped by class-transformer's forEach: left to it.
    if (!(i in value) || !isPrimitive(value[i])) return UNSURE;
    copy.push(value[i]);
  }
  return copy;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** No class-transformer metadata that plainToInstance would act on, for `dto`, its ancestors or these properties. */
function transformsNothing(dto: Function, names: readonly string[]): boolean {
  const storage = transformerMetadata;
  if (storage.getStrategy(dto) !== "none" || storage.getExposedMetadatas(dto).length > 0 || storage.getExcludedMetadatas(dto).length > 0)
    return false;
  return names.every(
    (name) => storage.findTypeMetadata(dto, name) === undefined && storage.findTransformMetadatas(dto, name, PLAIN_TO_CLASS).length === 0,
  );
}

/** A property class-transformer assigns as a plain data property: not a special key, not shadowed by the prototype chain. */
function plainlyAssignable(dto: Function, name: string): boolean {
  if (name === "__proto__" || name === "constructor") return false;
  for (let proto: object | null = dto.prototype as object; proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Object.getOwnPropertyDescriptor(proto, name) !== undefined) return false;
  }
  return true;
}
