// Pins the DTO -> JSON Schema mapping behind every tool's and prompt's inputSchema (and a DTO
// outputSchema), built once at bootstrap:
// - class-validator decorators become types and constraints (string, integer with bounds, number,
//   boolean, email format, enum, arrays with size bounds); @JSONSchema adds annotations
// - every property without @IsOptional is required; unknown properties are refused
//   (additionalProperties: false, as the validator forbids them)
// - nested DTOs (@ValidateNested with @Type, or the reflected type) land once in $defs, each
//   refusing unknown properties too, referenced from single values and arrays alike
// - a property the generator cannot express (no type decorator, or a union reflected as Object)
//   is a SchemaGenerationError naming Class.property and the fix
import "reflect-metadata";
import { Type } from "class-transformer";
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from "class-validator";
import { JSONSchema } from "class-validator-jsonschema";
import { SchemaGenerationError, dtoToJsonSchema } from "../../../src/schema/dto-json-schema";

class Address {
  @IsString() city!: string;
  @IsOptional() @IsString() zip?: string;
}

class Person {
  @IsString() @MaxLength(40) @JSONSchema({ description: "Full name" }) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsNumber() score!: number;
  @IsOptional() @IsBoolean() vip?: boolean;
  @IsEmail() email!: string;
  @IsIn(["a", "b"]) kind!: string;
  @ValidateNested() @Type(() => Address) home!: Address;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Address) @ArrayMaxSize(3) others!: Address[];
}

const ADDRESS = { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city"], additionalProperties: false };

describe("dtoToJsonSchema", () => {
  it("maps decorators to types, constraints and annotations, with required properties and no others", () => {
    expect(dtoToJsonSchema(Person)).toEqual({
      type: "object",
      properties: {
        name: { type: "string", maxLength: 40, description: "Full name" },
        age: { type: "integer", minimum: 0, maximum: 150 },
        score: { type: "number" },
        vip: { type: "boolean" },
        email: { type: "string", format: "email" },
        kind: { type: "string", enum: ["a", "b"] },
        home: { $ref: "#/$defs/Address" },
        others: { type: "array", items: { $ref: "#/$defs/Address" }, maxItems: 3 },
      },
      required: ["name", "age", "score", "email", "kind", "home", "others"],
      additionalProperties: false,
      $defs: { Address: ADDRESS },
    });
  });

  it("has no $defs without nested DTOs, and finds a nested DTO by its reflected type", () => {
    expect(dtoToJsonSchema(Address)).toEqual(ADDRESS);
    class Shipment {
      @ValidateNested() to!: Address;
    }
    expect(dtoToJsonSchema(Shipment)).toEqual({ type: "object", properties: { to: { $ref: "#/$defs/Address" } }, required: ["to"], additionalProperties: false, $defs: { Address: ADDRESS } });
  });

  it("refuses a property it cannot express, naming it and the fix", () => {
    class Untyped {
      @IsOptional() thing?: string | number;
    }
    expect(() => dtoToJsonSchema(Untyped)).toThrow(SchemaGenerationError);
    expect(() => dtoToJsonSchema(Untyped)).toThrow(
      "Untyped.thing: the schema generator cannot express this property (add a type decorator such as @IsString(), or declare a raw JSON Schema)",
    );
    class Other {
      @IsString() other!: string;
    }
    class Union {
      @ValidateNested() either!: Address | Other;
    }
    expect(() => dtoToJsonSchema(Union)).toThrow(
      "Union.either: the schema generator cannot express this property (its type reflects as Object; add a type decorator such as @IsString(), or declare a raw JSON Schema)",
    );
  });
});
