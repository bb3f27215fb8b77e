import { getMetadataStorage } from "class-validator";
import { targetConstructorToSchema, validationMetadataArrayToSchemas } from "class-validator-jsonschema";
import type { JsonObject } from "../protocol/wire-types";
import { hasValidationRules } from "./dto-validator";
import { transformerMetadata } from "./transformer-metadata";

const REF_PREFIX = "#/$defs/";
const BUILT_INS = new Set(["Object", "Function", "Array", "Promise", "Map", "Set", "Symbol", "BigInt"]);

/**
 * Thrown at bootstrap when a DTO cannot be expressed as JSON Schema. `reason` is "undecorated"
 * when a class has no class-validator decorators at all (class-validator refuses every instance
 * of such a class), so the caller can say what to write instead.
 */
export class SchemaGenerationError extends Error {
  override readonly name = "SchemaGenerationError";
  constructor(
    message: string,
    readonly reason: "undecorated" | "inexpressible" = "inexpressible",
  ) {
    super(message);
  }
}

/**
 * Converts a class-validator DTO into a self-contained JSON Schema (2020-12): nested DTOs land in
 * `$defs`, unknown properties are refused (`additionalProperties: false`, matching the validator's
 * `forbidNonWhitelisted`). A recursive DTO (a tree node holding nodes) is in `$defs` too, beside
 * the root, so every `$ref` resolves inside the schema. Done once per DTO at bootstrap; the hot
 * path never reflects.
 *
 * @example dtoToJsonSchema(AddArgs) // { type: "object", properties: {...}, required: [...] }
 */
export function dtoToJsonSchema(dto: Function): JsonObject {
  const found: Conversion = { defs: {}, classes: new Map([[dto.name, dto]]), referenced: new Set() };
  const root = convert(dto, found);
  // The root is named in $defs only when something refers back to it.
  if (found.referenced.has(dto.name)) found.defs = { [dto.name]: root, ...found.defs };
  return Object.keys(found.defs).length === 0 ? root : { ...root, $defs: found.defs };
}

/** What one conversion has found so far: the nested schemas, the class behind each name, the names referred to. */
interface Conversion {
  defs: Record<string, JsonObject>;
  readonly classes: Map<string, Function>;
  readonly referenced: Set<string>;
}

function convert(dto: Function, found: Conversion): JsonObject {
  if (!hasValidationRules(dto)) {
    throw new SchemaGenerationError(`${dto.name} has no class-validator decorators`, "undecorated");
  }
  const schema = generatedSchema(dto);
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  for (const [name, prop] of Object.entries(properties)) {
    if (Object.keys(prop).length === 0) {
      throw new SchemaGenerationError(
        `${dto.name}.${name}: the schema generator cannot express this property (add a type decorator such as @IsString(), or declare a raw JSON Schema)`,
      );
    }
    collectRefs(prop, dto, name, found);
  }
  return { ...schema, type: "object", properties, additionalProperties: false };
}

/** The generator's options: nested DTOs by `$ref` into `$defs`, class-transformer's types read. */
export const GENERATOR_OPTIONS = { classTransformerMetadataStorage: transformerMetadata, refPointerPrefix: REF_PREFIX } as const;
/**
 * Groups a DTO's rules under its constructor's `length` (a number: an array index to V8) instead
 * of its class name; see `generatedSchema`.
 */
const INDEX_KEYED = { ...GENERATOR_OPTIONS, schemaNameField: "length" } as const;

/**
 * class-validator-jsonschema's schema of one DTO: what `targetConstructorToSchema(dto)` returns.
 *
 * For a DTO whose rules are all its own (the common case), the generator is called with its rules
 * grouped under an index key rather than the class name. `targetConstructorToSchema` groups rules
 * into fresh objects keyed by class name (lodash.groupby, then the result map), so each DTO adds
 * one transition named after it to V8's shared map of `{}` objects. Past 1,536 transitions V8
 * adds no more to that map until the garbage is collected, and a request served before then is
 * served slowly for good: with 1,000 tools every later `tools/call` cost about 40% more CPU.
 * An index key is an element, not a property, and adds no transition. The grouping, the schema and
 * the class-level `@JSONSchema` lookup (by class) are otherwise the generator's own; a DTO with
 * inherited rules takes `targetConstructorToSchema` itself. A test pins the two equal.
 */
export function generatedSchema(dto: Function): JsonObject {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(dto, "", true, false);
  if (rules.some((rule) => rule.target !== dto)) return targetConstructorToSchema(dto, GENERATOR_OPTIONS) as JsonObject;
  // What targetConstructorToSchema hands the generator: a copy of each rule, a custom constraint's
  // type taken from its constraint class's registered name.
  const copies = rules.map((rule): (typeof rules)[number] => {
    const constraint = rule.constraintCls === undefined ? undefined : storage.getTargetValidatorConstraints(rule.constraintCls)[0];
    return constraint === undefined ? { ...rule } : { ...rule, type: constraint.name };
  });
  const key = (dto as { length?: unknown }).length ?? dto.name;
  return (validationMetadataArrayToSchemas(copies, INDEX_KEYED)[String(key)] ?? {}) as JsonObject;
}

function collectRefs(node: unknown, owner: Function, property: string, found: Conversion): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, owner, property, found);
    return;
  }
  const ref = (node as JsonObject).$ref;
  if (typeof ref === "string" && ref.startsWith(REF_PREFIX)) {
    const name = ref.slice(REF_PREFIX.length);
    if (BUILT_INS.has(name)) {
      // A union or `object` type reflects as Object: there is nothing to describe it with.
      throw new SchemaGenerationError(
        `${owner.name}.${property}: the schema generator cannot express this property (its type reflects as ${name}; add a type decorator such as @IsString(), or declare a raw JSON Schema)`,
      );
    }
    const nested = nestedClass(owner, property, name);
    if (!nested) {
      throw new SchemaGenerationError(
        `${owner.name}.${property}: cannot resolve nested type ${name} (use @Type(() => ${name}) from class-transformer)`,
      );
    }
    const known = found.classes.get(name);
    if (known !== undefined && known !== nested) {
      throw new SchemaGenerationError(
        `${owner.name}.${property}: two different classes are named ${name}, and $defs names them by class name; rename one`,
      );
    }
    found.referenced.add(name);
    if (known === undefined) {
      found.classes.set(name, nested);
      try {
        found.defs[name] = convert(nested, found);
      } catch (error) {
        if (error instanceof SchemaGenerationError && error.reason === "undecorated") {
          throw new SchemaGenerationError(
            `${owner.name}.${property} is a nested ${name}, which has no class-validator decorators`,
            "undecorated",
          );
        }
        throw error;
      }
    }
  }
  for (const value of Object.values(node)) collectRefs(value, owner, property, found);
}

function nestedClass(owner: Function, property: string, name: string): Function | undefined {
  const typeMeta = transformerMetadata.findTypeMetadata(owner, property);
  const fromTransformer = typeMeta?.typeFunction?.();
  if (typeof fromTransformer === "function" && fromTransformer.name === name) return fromTransformer;
  const designType: unknown = Reflect.getMetadata("design:type", owner.prototype, property);
  return typeof designType === "function" && designType.name === name ? designType : undefined;
}
