/*
 * Pins the class-validator DTO -> form schema mapping (dtoToFormSchema):
 * - each supported decorator maps onto the subset: IsString, MinLength, MaxLength, IsNotEmpty,
 *   IsEmail, IsUrl, IsDateString, IsISO8601 (+ JSONSchema format "date"), IsInt, IsNumber, Min, Max,
 *   IsBoolean, IsIn / IsEnum (single and each:true multi), IsArray, ArrayMinSize, ArrayMaxSize,
 *   IsOptional (else required), IsDefined, Allow, design:type fallback;
 * - JSONSchema({ title, description, default }) supplies annotations; other JSONSchema keys
 *   and its function form are rejected;
 * - unsupported decorators (Matches, IsUUID, Length, IsIP, ValidateNested, ValidateIf, custom Validate)
 *   and inconsistent combinations throw an ElicitationSchemaError naming class, property and the
 *   decorator as class-validator exports it (IsUUID, not IsUuid);
 * - the result passes the subset validator, is frozen, and is computed once per class;
 * - inherited properties are included.
 */
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  IsIP,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from "class-validator";
import { JSONSchema } from "class-validator-jsonschema";
import { dtoToFormSchema } from "../../../src/schema/dto-form-schema";
import { ElicitationSchemaError } from "../../../src/schema/elicitation-schema-error";
import { validateFormSchema } from "../../../src/schema/form-schema-subset";

function conversionError(dto: new () => object): ElicitationSchemaError {
  try {
    dtoToFormSchema(dto);
  } catch (error) {
    expect(error).toBeInstanceOf(ElicitationSchemaError);
    return error as ElicitationSchemaError;
  }
  throw new Error("expected the DTO to be rejected");
}

describe("dtoToFormSchema: decorator mapping", () => {
  it("maps string decorators", () => {
    class Profile {
      @IsString() @MinLength(2) @MaxLength(20) name!: string;
      @IsNotEmpty() @IsString() nick!: string;
      @IsEmail() email!: string;
      @IsUrl() site!: string;
      @IsDateString() seen!: string;
      @IsISO8601() born!: string;
      @JSONSchema({ format: "date" }) @IsDateString() day!: string;
    }
    expect(dtoToFormSchema(Profile)).toEqual({
      type: "object",
      properties: {
        name: { type: "string", minLength: 2, maxLength: 20 },
        nick: { type: "string", minLength: 1 },
        email: { type: "string", format: "email" },
        site: { type: "string", format: "uri" },
        seen: { type: "string", format: "date-time" },
        born: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
      },
      required: ["name", "nick", "email", "site", "seen", "born", "day"],
    });
  });

  it("maps number, integer and boolean decorators", () => {
    class Order {
      @IsInt() @Min(1) @Max(10) quantity!: number;
      @IsNumber() @Min(0.5) price!: number;
      @IsNumber() @IsInt() both!: number;
      @Max(3) capped!: number;
      @IsBoolean() gift!: boolean;
    }
    expect(dtoToFormSchema(Order).properties).toEqual({
      quantity: { type: "integer", minimum: 1, maximum: 10 },
      price: { type: "number", minimum: 0.5 },
      both: { type: "integer" },
      capped: { type: "number", maximum: 3 },
      gift: { type: "boolean" },
    });
  });

  it("maps IsIn and IsEnum to single- and multi-selects", () => {
    enum Size {
      Small = "s",
      Large = "l",
    }
    class Choice {
      @IsIn(["red", "green"]) color!: string;
      @IsEnum(Size) size!: Size;
      @IsIn(["a", "b", "c"], { each: true }) @IsArray() @ArrayMinSize(1) @ArrayMaxSize(2) tags!: string[];
      @IsEnum(Size, { each: true }) sizes!: Size[];
      @IsString({ each: true }) @IsIn(["x"], { each: true }) marks!: string[];
    }
    expect(dtoToFormSchema(Choice).properties).toEqual({
      color: { type: "string", enum: ["red", "green"] },
      size: { type: "string", enum: ["s", "l"] },
      tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b", "c"] } },
      sizes: { type: "array", items: { type: "string", enum: ["s", "l"] } },
      marks: { type: "array", items: { type: "string", enum: ["x"] } },
    });
  });

  it("makes a property optional only with IsOptional (IsDefined keeps it required)", () => {
    class Optionality {
      @IsString() needed!: string;
      @IsOptional() @IsString() maybe?: string;
      @IsOptional() @IsDefined() @IsString() insisted!: string;
      @IsDefined() @IsString() defined!: string;
      @Allow() @IsString() allowed!: string;
    }
    expect(dtoToFormSchema(Optionality).required).toEqual(["needed", "insisted", "defined", "allowed"]);
  });

  it("omits required when every property is optional", () => {
    class AllOptional {
      @IsOptional() @IsBoolean() newsletter?: boolean;
    }
    expect(dtoToFormSchema(AllOptional)).toEqual({ type: "object", properties: { newsletter: { type: "boolean" } } });
  });

  it("falls back to the reflected type when only IsOptional is present", () => {
    class Reflected {
      @IsOptional() text?: string;
      @IsOptional() amount?: number;
      @IsOptional() flag?: boolean;
    }
    expect(dtoToFormSchema(Reflected).properties).toEqual({
      text: { type: "string" },
      amount: { type: "number" },
      flag: { type: "boolean" },
    });
  });

  it("reads title, description and default from @JSONSchema", () => {
    class Annotated {
      @JSONSchema({ title: "Your name", description: "As on your passport", default: "Ada" })
      @IsString()
      name!: string;
      @JSONSchema({ title: "Age", default: 30 }) @IsInt() @Min(0) age!: number;
      @JSONSchema({ default: ["a"] }) @IsIn(["a", "b"], { each: true }) picks!: string[];
    }
    expect(dtoToFormSchema(Annotated).properties).toEqual({
      name: { type: "string", title: "Your name", description: "As on your passport", default: "Ada" },
      age: { type: "integer", title: "Age", minimum: 0, default: 30 },
      picks: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
    });
  });

  it("includes inherited properties", () => {
    class Base {
      @IsString() id!: string;
    }
    class Derived extends Base {
      @IsBoolean() ok!: boolean;
    }
    expect(Object.keys(dtoToFormSchema(Derived).properties).sort()).toEqual(["id", "ok"]);
  });

  it("produces a frozen schema that passes the subset validator, converted once per class", () => {
    class Cached {
      @IsEmail() email!: string;
    }
    const first = dtoToFormSchema(Cached);
    expect(() => validateFormSchema(first)).not.toThrow();
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.properties.email)).toBe(true);
    expect(dtoToFormSchema(Cached)).toBe(first);
  });
});

@ValidatorConstraint({ name: "customCheck" })
class CustomCheck implements ValidatorConstraintInterface {
  validate(): boolean {
    return true;
  }
}

describe("dtoToFormSchema: rejections name class, property and decorator", () => {
  it.each<[string, () => new () => object, string, string]>([
    [
      "Matches",
      () => {
        class WithPattern {
          @Matches(/^\d+$/) zip!: string;
        }
        return WithPattern;
      },
      "zip",
      "Matches",
    ],
    [
      "IsUUID",
      () => {
        class WithUuid {
          @IsUUID() id!: string;
        }
        return WithUuid;
      },
      "id",
      "IsUUID",
    ],
    [
      "Length",
      () => {
        class WithLength {
          @IsString() @Length(1, 5) code!: string;
        }
        return WithLength;
      },
      "code",
      "Length",
    ],
    [
      "IsIP",
      () => {
        class WithIp {
          @IsIP() address!: string;
        }
        return WithIp;
      },
      "address",
      "IsIP",
    ],
    [
      "ValidateNested",
      () => {
        class WithNested {
          @ValidateNested() address!: object;
        }
        return WithNested;
      },
      "address",
      "ValidateNested",
    ],
    [
      "ValidateIf",
      () => {
        class WithCondition {
          @ValidateIf(() => true) @IsString() note!: string;
        }
        return WithCondition;
      },
      "note",
      "ValidateIf",
    ],
    [
      "a custom constraint",
      () => {
        class WithCustom {
          @Validate(CustomCheck) @IsString() code!: string;
        }
        return WithCustom;
      },
      "code",
      "CustomCheck",
    ],
  ])("rejects %s", (_name, make, property, decorator) => {
    const dto = make();
    const error = conversionError(dto);
    expect(error.details).toMatchObject({ dto: dto.name, property, decorator });
    expect(error.message).toContain(dto.name);
    expect(error.message).toContain(`property "${property}"`);
    expect(error.message).toContain(`@${decorator}`);
  });

  it("rejects decorators that disagree on the type", () => {
    class Confused {
      @IsString() @IsInt() value!: string;
    }
    const error = conversionError(Confused);
    expect(error.details).toMatchObject({ dto: "Confused", property: "value" });
    expect(error.message).toMatch(/IsString.*IsInt|IsInt.*IsString/);
  });

  it("rejects two formats on one field", () => {
    class TwoFormats {
      @IsEmail() @IsUrl() contact!: string;
    }
    expect(conversionError(TwoFormats).details).toMatchObject({ dto: "TwoFormats", property: "contact" });
  });

  it("rejects a multi-select without options", () => {
    class NoOptions {
      @IsArray() @ArrayMaxSize(2) tags!: string[];
    }
    expect(conversionError(NoOptions).message).toContain("IsIn");
  });

  it("rejects non-string choices", () => {
    class NumericChoice {
      @IsIn([1, 2]) level!: number;
    }
    expect(conversionError(NumericChoice).details).toMatchObject({ property: "level", decorator: "IsIn" });
  });

  it("rejects each:true on decorators other than IsIn/IsEnum/IsString", () => {
    class EachMin {
      @IsIn(["a"], { each: true }) @MaxLength(3, { each: true }) tags!: string[];
    }
    expect(conversionError(EachMin).details).toMatchObject({ property: "tags", decorator: "MaxLength" });
  });

  it("rejects a property whose type cannot be known", () => {
    class Unknown {
      @IsOptional() when?: Date;
    }
    expect(conversionError(Unknown).details).toMatchObject({ dto: "Unknown", property: "when" });
  });

  it("rejects a DTO without decorated properties", () => {
    class Empty {
      name = "";
    }
    expect(conversionError(Empty).message).toContain("Empty");
  });

  it("rejects unsupported JSONSchema keys, naming the keyword", () => {
    class WithPatternMeta {
      @JSONSchema({ pattern: "^a" }) @IsString() code!: string;
    }
    const error = conversionError(WithPatternMeta);
    expect(error.details).toMatchObject({ dto: "WithPatternMeta", property: "code", decorator: "JSONSchema", keyword: "pattern" });
    expect(error.message).toContain("pattern");
  });

  it("rejects the JSONSchema function form", () => {
    class WithFunction {
      @JSONSchema(() => ({ title: "x" })) @IsString() code!: string;
    }
    expect(conversionError(WithFunction).details).toMatchObject({ property: "code", decorator: "JSONSchema" });
  });

  it("rejects a JSONSchema format outside IsDateString / IsISO8601", () => {
    class FormatOnString {
      @JSONSchema({ format: "date" }) @IsString() day!: string;
    }
    expect(conversionError(FormatOnString).details).toMatchObject({ property: "day", decorator: "JSONSchema" });
  });

  it("rejects a default that breaks the property, naming class, property and keyword", () => {
    class BadDefault {
      @JSONSchema({ default: 11 }) @IsInt() @Max(10) count!: number;
    }
    const error = conversionError(BadDefault);
    expect(error.details).toMatchObject({ dto: "BadDefault", property: "count", keyword: "default" });
    expect(error.message).toContain("BadDefault");
  });

  it("rejects length decorators on a choice through the subset validator", () => {
    class LengthOnChoice {
      @IsIn(["a"]) @MinLength(1) pick!: string;
    }
    expect(conversionError(LengthOnChoice).details).toMatchObject({ dto: "LengthOnChoice", property: "pick", keyword: "minLength" });
  });

  it("rejects inverted bounds", () => {
    class Inverted {
      @IsString() @MinLength(5) @MaxLength(2) name!: string;
    }
    expect(conversionError(Inverted).details).toMatchObject({ property: "name", keyword: "minLength" });
  });
});
