import { getMetadataStorage } from "class-validator";
import { targetConstructorToSchema } from "class-validator-jsonschema";
import type { MetadataStorage } from "class-transformer/types/MetadataStorage";

// class-transformer keeps @Type() metadata here; the package ships no typings for this path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require("class-transformer/cjs/storage") as { defaultMetadataStorage: MetadataStorage };
import type { JsonObject } from "../protocol/wire-types";

const REF_PREFIX = "#/$defs/";
const BUILT_INS = new Set(["Object", "Function", "Array", "Promise", "Map", "Set", "Symbol", "BigInt"]);

/** Thrown at bootstrap when a DTO cannot be expressed as JSON Schema. */
export class SchemaGenerationError extends Error {
  override readonly name = "SchemaGenerationError";
}

/**
 * Converts a class-validator DTO into a self-contained JSON Schema (2020-12): nested DTOs land in
 * `$defs`, unknown properties are refused (`additionalProperties: false`, matching the validator's
 * `forbidNonWhitelisted`). Done once per DTO at bootstrap; the hot path never reflects.
 *
 * @example dtoToJsonSchema(AddArgs) // { type: "object", properties: {...}, required: [...] }
 */
export function dtoToJsonSchema(dto: Function): JsonObject {
  const defs: Record<string, JsonObject> = {};
  const root = convert(dto, defs, new Set([dto.name]));
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

function convert(dto: Function, defs: Record<string, JsonObject>, seen: Set<string>): JsonObject {
  const known = getMetadataStorage().getTargetValidationMetadatas(dto, "", true, false);
  if (known.length === 0 && Object.getOwnPropertyNames(dto.prototype).length <= 1) {
    // A DTO with no class-validator decorators is an empty argument object.
    return { type: "object", properties: {}, additionalProperties: false };
  }
  const schema = targetConstructorToSchema(dto, {
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: REF_PREFIX,
  }) as JsonObject;
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  for (const [name, prop] of Object.entries(properties)) {
    if (Object.keys(prop).length === 0) {
      throw new SchemaGenerationError(
        `${dto.name}.${name}: the schema generator cannot express this property (add a type decorator such as @IsString(), or declare a raw JSON Schema)`,
      );
    }
    collectRefs(prop, dto, name, defs, seen);
  }
  return { ...schema, type: "object", properties, additionalProperties: false };
}

function collectRefs(node: unknown, owner: Function, property: string, defs: Record<string, JsonObject>, seen: Set<string>): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, owner, property, defs, seen);
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
    if (!seen.has(name)) {
      const nested = nestedClass(owner, property, name);
      if (!nested) {
        throw new SchemaGenerationError(`${owner.name}.${property}: cannot resolve nested type ${name} (use @Type(() => ${name}) from class-transformer)`);
      }
      seen.add(name);
      defs[name] = convert(nested, defs, seen);
    }
  }
  for (const value of Object.values(node)) collectRefs(value, owner, property, defs, seen);
}

function nestedClass(owner: Function, property: string, name: string): Function | undefined {
  const typeMeta = defaultMetadataStorage.findTypeMetadata(owner, property);
  const fromTransformer = typeMeta?.typeFunction?.();
  if (typeof fromTransformer === "function" && fromTransformer.name === name) return fromTransformer;
  const designType: unknown = Reflect.getMetadata("design:type", owner.prototype, property);
  return typeof designType === "function" && designType.name === name ? designType : undefined;
}
