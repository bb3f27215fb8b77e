import "reflect-metadata";
import { getMetadataStorage } from "class-validator";
import { getMetadataSchema } from "class-validator-jsonschema/build/decorators";
import { ElicitationSchemaError } from "./elicitation-schema-error";
import type { FormFormat, FormPropertySchema, FormSchema } from "../protocol/form-schema";
import { decoratorName } from "./decorator-name";
import { validateFormSchema } from "./form-schema-subset";
import { frozenCopy } from "../protocol/frozen-copy";
import { isPlainObject } from "../protocol/plain-object";
import type { DtoClass } from "../protocol/dto-class";

/** The part of class-validator's ValidationMetadata this mapping reads. */
interface ValidatorEntry {
  type: string;
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
  constraintCls?: { name?: string };
}

type Kind = "string" | "number" | "integer" | "boolean" | "array";

/** What one property's decorators say, gathered before the schema is written. */
interface PropertyFacts {
  kinds: Map<Kind, string>; // kind -> first decorator that implied it
  optional: boolean;
  defined: boolean;
  minLength?: number;
  maxLength?: number;
  format?: { value: FormFormat; decorator: string };
  minimum?: number;
  maximum?: number;
  values?: { list: string[]; decorator: string };
  minItems?: number;
  maxItems?: number;
}

const cache = new WeakMap<DtoClass, FormSchema>();
const ANNOTATION_KEYS = ["title", "description", "default"];

/** What the form subset offers instead of a decorator people reach for (appended to its error). */
const NO_EQUIVALENT_HINTS: Record<string, string> = {
  matches:
    ' (a form has no "pattern"): use a format it has (@IsEmail, @IsUrl, @IsDateString), a choice list (@IsIn([...])) ' +
    "or length bounds (@MinLength, @MaxLength), or keep @IsString() and check the answer in the method (return Result.error(...) naming what is wrong)",
  isUuid: ' (a form has no "uuid" format): keep @IsString() and check the answer in the method, or offer the choices with @IsIn([...])',
};
const DATE_FORMATS: readonly string[] = ["date", "date-time"];

/**
 * Converts a class-validator DTO into the restricted flat form schema, once per class (cached),
 * and returns it frozen. Supported decorators: IsString, MinLength, MaxLength, IsNotEmpty (minLength 1),
 * IsEmail (format email), IsUrl (format uri), IsDateString / IsISO8601 (format date-time, or date
 * with `@JSONSchema({ format: "date" })`), IsInt, IsNumber, Min, Max, IsBoolean, IsIn / IsEnum with
 * string values (single-select; with `{ each: true }` a multi-select), IsArray, ArrayMinSize,
 * ArrayMaxSize, IsOptional (otherwise the property is required), IsDefined, Allow. Title, description and
 * default come from class-validator-jsonschema's `@JSONSchema({ title, description, default })`.
 * Any other decorator (Matches, IsUUID, ValidateNested, ValidateIf, custom constraints ...) throws
 * an `ElicitationSchemaError` naming the class, the property and the decorator.
 *
 * @example class Contact { @JSONSchema({ title: "E-mail" }) @IsEmail() email!: string } dtoToFormSchema(Contact);
 */
export function dtoToFormSchema(dto: DtoClass): FormSchema {
  const cached = cache.get(dto);
  if (cached !== undefined) return cached;
  const schema = convert(dto);
  cache.set(dto, schema);
  return schema;
}

function convert(dto: DtoClass): FormSchema {
  const entries: ValidatorEntry[] = getMetadataStorage().getTargetValidationMetadatas(dto, "", true, false);
  const byProperty = new Map<string, ValidatorEntry[]>();
  for (const entry of entries) {
    byProperty.set(entry.propertyName, [...(byProperty.get(entry.propertyName) ?? []), entry]);
  }
  if (byProperty.size === 0) {
    throw new ElicitationSchemaError(
      "it has no class-validator decorators, so no answer could ever be valid (unknownValue). Give each property a decorator of " +
        "the form subset such as @IsString(), @IsInt(), @IsBoolean() or @IsIn([...]) (with @IsOptional() when it may be left out)",
      { dto: dto.name },
    );
  }
  const properties: Record<string, FormPropertySchema> = {};
  const required: string[] = [];
  for (const [property, propertyEntries] of byProperty) {
    // Decorators run bottom-up; read them in source order so "first decorator" means what users expect.
    const facts = gatherFacts(dto, property, [...propertyEntries].reverse());
    properties[property] = writeProperty(dto, property, facts);
    if (!facts.optional || facts.defined) required.push(property);
  }
  const schema: FormSchema = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
  try {
    validateFormSchema(schema);
  } catch (error) {
    if (error instanceof ElicitationSchemaError) {
      throw new ElicitationSchemaError(error.problem, { ...error.details, dto: dto.name });
    }
    throw error;
  }
  return frozenCopy(schema);
}

function gatherFacts(dto: DtoClass, property: string, entries: ValidatorEntry[]): PropertyFacts {
  const facts: PropertyFacts = { kinds: new Map(), optional: false, defined: false };
  const fail = (decorator: string, problem: string): never => {
    throw new ElicitationSchemaError(problem, { dto: dto.name, property, decorator });
  };
  const imply = (kind: Kind, decorator: string): void => {
    if (!facts.kinds.has(kind)) facts.kinds.set(kind, decorator);
  };
  for (const entry of entries) {
    const decorator = decoratorLabel(entry);
    const first = entry.constraints?.[0];
    if (entry.each && !["isIn", "isEnum", "isString"].includes(entry.name ?? "")) {
      fail(decorator, "{ each: true } is only supported on IsIn, IsEnum and IsString");
    }
    if (entry.type === "conditionalValidation" && entry.name === "isOptional") {
      facts.optional = true;
      continue;
    }
    if (entry.type === "isDefined") {
      facts.defined = true;
      continue;
    }
    if (entry.type === "whitelistValidation") continue; // @Allow: no constraint
    if (entry.type !== "customValidation") fail(decorator, "has no equivalent in the elicitation form subset");
    switch (entry.name) {
      case "isString":
        imply(entry.each ? "array" : "string", decorator);
        break;
      case "minLength":
        imply("string", decorator);
        facts.minLength = first as number;
        break;
      case "maxLength":
        imply("string", decorator);
        facts.maxLength = first as number;
        break;
      case "isNotEmpty":
        imply("string", decorator);
        facts.minLength = Math.max(facts.minLength ?? 0, 1);
        break;
      case "isEmail":
      case "isUrl":
      case "isDateString":
      case "isIso8601": {
        imply("string", decorator);
        const value: FormFormat = entry.name === "isEmail" ? "email" : entry.name === "isUrl" ? "uri" : "date-time";
        if (facts.format !== undefined && facts.format.value !== value) {
          fail(decorator, `conflicts with @${facts.format.decorator}: a field has at most one format`);
        }
        facts.format = { value, decorator };
        break;
      }
      case "isInt":
        imply("integer", decorator);
        break;
      case "isNumber":
        imply("number", decorator);
        break;
      case "min":
        imply("number", decorator);
        facts.minimum = first as number;
        break;
      case "max":
        imply("number", decorator);
        facts.maximum = first as number;
        break;
      case "isBoolean":
        imply("boolean", decorator);
        break;
      case "isIn":
      case "isEnum": {
        imply(entry.each ? "array" : "string", decorator);
        const values = entry.name === "isIn" ? first : entry.constraints?.[1];
        if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) {
          fail(decorator, "only string values can be offered in a form");
        }
        if (facts.values !== undefined) fail(decorator, `repeats the choice list of @${facts.values.decorator}`);
        facts.values = { list: [...(values as string[])], decorator };
        break;
      }
      case "isArray":
        imply("array", decorator);
        break;
      case "arrayMinSize":
        imply("array", decorator);
        facts.minItems = first as number;
        break;
      case "arrayMaxSize":
        imply("array", decorator);
        facts.maxItems = first as number;
        break;
      default:
        fail(decorator, `has no equivalent in the elicitation form subset${NO_EQUIVALENT_HINTS[entry.name ?? ""] ?? ""}`);
    }
  }
  return facts;
}

function writeProperty(dto: DtoClass, property: string, facts: PropertyFacts): FormPropertySchema {
  const kind = resolveKind(dto, property, facts);
  const annotations = readAnnotations(dto, property);
  const fail = (decorator: string, problem: string): never => {
    throw new ElicitationSchemaError(problem, { dto: dto.name, property, decorator });
  };
  const { title, description, default: fallback, format } = annotations;
  const head = { ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}) };
  const tail = fallback !== undefined ? { default: fallback } : {};
  let written: Record<string, unknown>;
  switch (kind) {
    case "string":
      if (facts.values !== undefined) {
        // Length or format decorators on a choice are written out so the subset check rejects them.
        written = {
          type: "string",
          ...head,
          enum: facts.values.list,
          minLength: facts.minLength,
          maxLength: facts.maxLength,
          format: facts.format?.value ?? format,
          ...tail,
        };
      } else {
        let stringFormat = facts.format?.value;
        if (format !== undefined) {
          if (stringFormat !== "date-time" || !DATE_FORMATS.includes(format as string)) {
            fail("JSONSchema", '"format" may only choose "date" or "date-time" for an IsDateString / IsISO8601 property');
          }
          stringFormat = format as FormFormat;
        }
        written = {
          type: "string",
          ...head,
          minLength: facts.minLength,
          maxLength: facts.maxLength,
          format: stringFormat,
          ...tail,
        };
      }
      break;
    case "number":
    case "integer":
      written = { type: kind, ...head, minimum: facts.minimum, maximum: facts.maximum, ...tail };
      break;
    case "boolean":
      written = { type: "boolean", ...head, ...tail };
      break;
    case "array":
      if (facts.values === undefined) {
        fail(facts.kinds.get("array") ?? "IsArray", "a multi-select needs its options: add @IsIn([...], { each: true })");
      }
      written = {
        type: "array",
        ...head,
        minItems: facts.minItems,
        maxItems: facts.maxItems,
        items: { type: "string", enum: facts.values!.list },
        ...tail,
      };
      break;
  }
  if (format !== undefined && kind !== "string") {
    fail("JSONSchema", '"format" may only choose "date" or "date-time" for an IsDateString / IsISO8601 property');
  }
  return Object.fromEntries(Object.entries(written).filter(([, value]) => value !== undefined)) as FormPropertySchema;
}

function resolveKind(dto: DtoClass, property: string, facts: PropertyFacts): Kind {
  const kinds = new Map(facts.kinds);
  if (kinds.has("integer")) kinds.delete("number"); // IsInt with IsNumber/Min/Max is an integer
  if (kinds.size > 1) {
    const [[, a], [, b]] = [...kinds.entries()] as [[Kind, string], [Kind, string]];
    throw new ElicitationSchemaError(`@${a} and @${b} disagree on the field's type`, {
      dto: dto.name,
      property,
      decorator: b,
    });
  }
  const only = [...kinds.keys()][0];
  if (only !== undefined) return only;
  // No type decorator (e.g. only @IsOptional): fall back to the reflected TypeScript type.
  const designType: unknown = Reflect.getMetadata("design:type", dto.prototype, property);
  if (designType === String) return "string";
  if (designType === Number) return "number";
  if (designType === Boolean) return "boolean";
  throw new ElicitationSchemaError("its type is unknown: add IsString, IsInt, IsNumber, IsBoolean or IsIn", { dto: dto.name, property });
}

/** title / description / default (and a date format choice) from `@JSONSchema({...})`. */
function readAnnotations(dto: DtoClass, property: string): Record<string, unknown> {
  const stored: unknown = getMetadataSchema(dto.prototype, property);
  const fail = (keyword: string | undefined, problem: string): never => {
    throw new ElicitationSchemaError(problem, { dto: dto.name, property, decorator: "JSONSchema", keyword });
  };
  if (typeof stored === "function") fail(undefined, "the function form is not supported; pass { title, description, default }");
  if (!isPlainObject(stored)) return {};
  for (const key of Object.keys(stored)) {
    if (!ANNOTATION_KEYS.includes(key) && key !== "format") {
      fail(key, `"${key}" is not supported; only title, description, default (and format "date")`);
    }
  }
  return stored;
}

/** The decorator as users wrote it: class-validator's export name ("isUuid" -> "IsUUID"), or the custom constraint's name. */
function decoratorLabel(entry: ValidatorEntry): string {
  if (entry.name !== undefined && entry.name !== "") return decoratorName(entry.name) ?? entry.name[0]!.toUpperCase() + entry.name.slice(1);
  switch (entry.type) {
    case "nestedValidation":
      return "ValidateNested";
    case "promiseValidation":
      return "ValidatePromise";
    case "conditionalValidation":
      return "ValidateIf";
    default:
      return entry.constraintCls?.name || "Validate";
  }
}
