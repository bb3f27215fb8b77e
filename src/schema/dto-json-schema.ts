import { targetConstructorToSchema } from "class-validator-jsonschema";
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
  const schema = targetConstructorToSchema(dto, {
    classTransformerMetadataStorage: transformerMetadata,
    refPointerPrefix: REF_PREFIX,
  }) as JsonObject;
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
