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
// - a class with no class-validator decorators (root or nested) is a SchemaGenerationError with
//   reason "undecorated"; one whose decorators are all inherited converts like its base
// - a recursive DTO (directly, or through another class) gives a self-contained schema: the root
//   is in $defs beside the nested classes, so every $ref resolves; ajv (2020-12, strict) compiles
//   it and accepts and refuses what class-validator does
// - two different classes with one name are refused ($defs names them by class name)
// - the generator's schema of each DTO (generatedSchema, which groups a DTO's own rules under an
//   index key) equals class-validator-jsonschema's targetConstructorToSchema for DTOs of every kind:
//   annotations on the class and its properties, custom constraints, arrays, nested types, a
//   constructor with parameters, one whose `length` is redefined, and inherited rules
import "reflect-metadata";
import { Type } from "class-transformer";
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  IsEnum,
  IsUUID,
  ArrayMinSize,
  IsDefined,
} from "class-validator";
import { JSONSchema, targetConstructorToSchema } from "class-validator-jsonschema";
import Ajv2020 from "ajv/dist/2020";
import { GENERATOR_OPTIONS, SchemaGenerationError, dtoToJsonSchema, generatedSchema } from "../../../src/schema/dto-json-schema";
import { validateDto } from "../../../src/schema/dto-validator";

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

const ADDRESS = {
  type: "object",
  properties: { city: { type: "string" }, zip: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};

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
    expect(dtoToJsonSchema(Shipment)).toEqual({
      type: "object",
      properties: { to: { $ref: "#/$defs/Address" } },
      required: ["to"],
      additionalProperties: false,
      $defs: { Address: ADDRESS },
    });
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

  it("refuses a class with no class-validator decorators, at the root or nested, and converts an inherited one", () => {
    class Bare {
      name!: string;
    }
    const refusal = (dto: Function) => {
      try {
        dtoToJsonSchema(dto);
      } catch (error) {
        return error as SchemaGenerationError;
      }
      throw new Error("expected a SchemaGenerationError");
    };
    expect(refusal(Bare)).toMatchObject({ reason: "undecorated", message: "Bare has no class-validator decorators" });
    class Holder {
      @ValidateNested() @Type(() => Bare) inner!: Bare;
    }
    expect(refusal(Holder)).toMatchObject({
      reason: "undecorated",
      message: "Holder.inner is a nested Bare, which has no class-validator decorators",
    });
    class Derived extends Address {}
    expect(dtoToJsonSchema(Derived)).toEqual(ADDRESS);
  });

  it("gives a recursive DTO a self-contained schema that ajv compiles and that agrees with the validator", async () => {
    class TreeNode {
      @IsString() label!: string;
      @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    }
    const schema = dtoToJsonSchema(TreeNode);
    const node = {
      type: "object",
      properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/TreeNode" } } },
      required: ["label"],
      additionalProperties: false,
    };
    expect(schema).toEqual({ ...node, $defs: { TreeNode: node } });
    const check = new Ajv2020({ strict: true }).compile(schema);
    const good = { label: "a", children: [{ label: "b", children: [{ label: "c" }] }] };
    const bad = { label: "a", children: [{ label: "b", children: [{ label: 3 }] }] };
    const extra = { label: "a", children: [{ label: "b", colour: "red" }] };
    expect([check(good), check(bad), check(extra)]).toEqual([true, false, false]);
    expect([
      (await validateDto(TreeNode, good)).ok,
      (await validateDto(TreeNode, bad)).ok,
      (await validateDto(TreeNode, extra)).ok,
    ]).toEqual([true, false, false]);
  });

  it("resolves recursion through another class", () => {
    class Person {
      @IsString() name!: string;
      // Typed loosely: a class declared below cannot be named in emitted metadata; @Type names it.
      @IsOptional() @ValidateNested() @Type(() => Team) team?: object;
    }
    class Team {
      @IsString() title!: string;
      @IsArray() @ValidateNested({ each: true }) @Type(() => Person) members!: Person[];
    }
    const schema = dtoToJsonSchema(Person);
    expect(Object.keys(schema.$defs as object).sort()).toEqual(["Person", "Team"]);
    const check = new Ajv2020({ strict: true }).compile(schema);
    expect(check({ name: "a", team: { title: "t", members: [{ name: "b", team: { title: "u", members: [] } }] } })).toBe(true);
    expect(check({ name: "a", team: { title: "t", members: [{ name: 1 }] } })).toBe(false);
  });

  it("refuses two different classes with one name", () => {
    const first = (() => {
      class Leg {
        @IsString() from!: string;
      }
      return Leg;
    })();
    const second = (() => {
      class Leg {
        @IsInt() km!: number;
      }
      return Leg;
    })();
    class Journey {
      @ValidateNested() @Type(() => first) out!: InstanceType<typeof first>;
      @ValidateNested() @Type(() => second) back!: InstanceType<typeof second>;
    }
    expect(() => dtoToJsonSchema(Journey)).toThrow("Journey.back: two different classes are named Leg");
  });

  it("generates for each DTO what targetConstructorToSchema does", () => {
    @ValidatorConstraint({ name: "isEvenNumber" })
    class IsEven implements ValidatorConstraintInterface {
      validate(value: unknown): boolean {
        return typeof value === "number" && value % 2 === 0;
      }
    }
    // A custom constraint registered under a built-in rule's name takes that rule's schema.
    @ValidatorConstraint({ name: "isEmail" })
    class IsWorkEmail implements ValidatorConstraintInterface {
      validate(value: unknown): boolean {
        return typeof value === "string" && value.endsWith("@example.com");
      }
    }
    enum Colour {
      Red = "red",
      Blue = "blue",
    }
    @JSONSchema({ description: "A booking", title: "Booking" })
    class Booking {
      @IsUUID() id!: string;
      @Validate(IsEven) @IsInt() nights!: number;
      @IsEnum(Colour) colour!: Colour;
      @IsArray() @ArrayMinSize(1) @IsString({ each: true }) guests!: string[];
      @IsOptional() @IsString() @JSONSchema({ examples: ["window"] }) note?: string;
      @IsDefined() confirmed!: boolean;
      @Validate(IsWorkEmail) contact!: string;
    }
    class WithParameters {
      @IsString() name!: string;
      constructor(name: string, other: number) {
        this.name = `${name}${other}`;
      }
    }
    class LengthRedefined {
      static readonly length = "Shadowed";
      @IsInt() count!: number;
    }
    class Base {
      @IsString() id!: string;
      @IsOptional() @IsInt() rank?: number;
    }
    class Derived extends Base {
      @IsInt() override rank?: number = undefined;
      @IsBoolean() flag!: boolean;
    }
    // A static `length` that is not a number is not a Function's type: the test is that it still works.
    const dtos: Function[] = [Address, Person, Booking, WithParameters, LengthRedefined as unknown as Function, Base, Derived];
    for (const dto of dtos) {
      const expected = targetConstructorToSchema(dto, GENERATOR_OPTIONS);
      expect({ dto: dto.name, schema: generatedSchema(dto) }).toEqual({ dto: dto.name, schema: expected });
      expect(Object.keys(expected.properties ?? {}).length).toBeGreaterThan(0);
    }
    // The custom constraint's type is its registered name, as targetConstructorToSchema makes it.
    expect((generatedSchema(Booking).properties as Record<string, unknown>).contact).toEqual({ type: "string", format: "email" });
  });
});
