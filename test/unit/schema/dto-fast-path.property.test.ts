/*
 * Pins the DTO fast path (validation without class-transformer and class-validator, see
 * src/schema/dto-fast-path.ts) against the two libraries themselves, with fast-check (seeded,
 * bounded):
 * - for generated inputs over several DTOs (types, bounds, lengths, enums, formats, each, array
 *   sizes, IsOptional, IsDefined, ValidateIf, Allow, defaults set by the constructor, inheritance,
 *   a ValidateBy decorator and a constraint class of the app's own), validateDto gives what
 *   plainToInstance + validate give: the same verdict; on success an instance of the same class
 *   with the same own properties in the same order and the same values (arrays copied, not
 *   shared); on failure the same violations, word for word;
 * - whenever the fast path accepts an input on its own, the libraries accept it too, with an
 *   equal instance;
 * - a field the constructor sets without rules (refused by the whitelist) is never accepted;
 * - it is complete on simple input: every input the libraries accept whose keys are the DTO's and
 *   whose values are JSON primitives or arrays of them is accepted by the fast path;
 * - what is not a plain object (a Date, a Map, a Set, a class instance, a promise) gets the
 *   libraries' verdict; a null-prototype object is accepted as they accept it;
 * - a valid input of a simple DTO never reaches class-validator;
 * - DTOs with something the fast path does not reproduce get none: nested validation, @Type,
 *   @Transform, @Expose, @Exclude, an async constraint, a property shadowed by a getter, no rules.
 */
import "reflect-metadata";
import fc from "fast-check";
import { Exclude, Expose, plainToInstance, Transform, Type } from "class-transformer";
import * as classValidator from "class-validator";
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  getMetadataStorage,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidationError,
  type ValidatorConstraintInterface,
} from "class-validator";
import { compileFastPath } from "../../../src/schema/dto-fast-path";
import { validateDto, type FieldViolation } from "../../../src/schema/dto-validator";

enum Size {
  Small = "s",
  Large = "l",
}

class Scalars {
  @IsString() @MinLength(2) @MaxLength(8) name!: string;
  @IsInt() @Min(-5) @Max(100) count!: number;
  @IsOptional() @IsNumber() ratio?: number;
  @IsBoolean() flag!: boolean;
}

class Choices {
  @IsIn(["red", "green", 3]) colour!: string | number;
  @IsEnum(Size) size!: Size;
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags?: string[];
  @IsOptional() @IsIn(["a", "b"], { each: true }) letters?: string[];
}

class Formats {
  @IsEmail() email!: string;
  @IsOptional() @IsUUID("4") id?: string;
  @Matches(/^[a-z]{1,3}$/) code!: string;
  @IsNotEmpty() note!: string;
}

class Conditions {
  @IsIn(["text", "number"]) kind!: string;
  @ValidateIf((o: Conditions) => o.kind === "text") @IsString() text?: string;
  @ValidateIf((o: Conditions) => o.kind === "number") @IsInt() number?: number;
  @IsDefined() @IsOptional() present?: unknown;
  @Allow() anything?: unknown;
}

class WithDefaults {
  @IsString() label = "untitled";
  @IsOptional() @IsInt() @Min(0) retries?: number = 3;
}

class Child extends WithDefaults {
  @IsBoolean() @IsOptional() archived?: boolean;
}

/** A ValidateBy decorator (the way to write a custom decorator with a validate function). */
const IsEven = () =>
  ValidateBy({
    name: "isEven",
    validator: {
      validate: (value: unknown) => typeof value === "number" && value % 2 === 0,
      defaultMessage: () => "$property must be even",
    },
  });

@ValidatorConstraint({ name: "startsWithA" })
class StartsWithA implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === "string" && value.startsWith("a");
  }
}

class Custom {
  @IsEven() even!: number;
  @Validate(StartsWithA) word!: string;
}

/** A field without rules, set by the constructor: class-validator's whitelist refuses every instance. */
class Helper {
  @IsString() s!: string;
  helper = 1;
}

const SIMPLE = [Scalars, Choices, Formats, Conditions, WithDefaults, Child, Custom, Helper];

// ---- DTOs the fast path must leave alone ----

class Inner {
  @IsString() value!: string;
}
class Nested {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}
class Typed {
  @Type(() => Number) @IsInt() n!: number;
}
class Transformed {
  @Transform(({ value }) => String(value).trim()) @IsString() s!: string;
}
class Exposed {
  @Expose({ name: "other" }) @IsString() s!: string;
}
class Excluded {
  @Exclude() @IsOptional() @IsString() secret?: string;
  @IsString() s!: string;
}
@ValidatorConstraint({ name: "later", async: true })
class Later implements ValidatorConstraintInterface {
  async validate(): Promise<boolean> {
    return true;
  }
}
class Async {
  @Validate(Later) s!: string;
}
class Shadowed {
  @IsString() get s(): string {
    return "x";
  }
}
class Bare {
  s!: string;
}

// ---- the oracle: the two libraries as the framework called them before the fast path ----

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

function violationsOf(errors: ValidationError[], prefix: string): FieldViolation[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    // A missing field is one "required" violation (src/schema/dto-validator.ts says so first).
    if (error.value === undefined && constraints.length > 0) return [{ field, constraint: "required", message: `${field} is required` }];
    const own = constraints.map(([constraint, message]) => ({ field, constraint, message }));
    return [...own, ...violationsOf(error.children ?? [], field)];
  });
}

async function libraries(
  dto: new () => object,
  plain: Record<string, unknown>,
): Promise<{ ok: boolean; value?: object; violations?: FieldViolation[] }> {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, "", true, false)
      .map((m) => m.propertyName),
  );
  const unknown: FieldViolation[] = [];
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plain)) {
    if (known.has(key)) kept[key] = value;
    else unknown.push({ field: key, constraint: "whitelistValidation", message: `property ${key} should not exist` });
  }
  const instance = plainToInstance(dto, unknown.length === 0 ? plain : kept, { exposeDefaultValues: true }) as object;
  const errors = await classValidator.validate(instance, OPTIONS);
  if (errors.length === 0 && unknown.length === 0) return { ok: true, value: instance };
  return { ok: false, violations: [...unknown, ...violationsOf(errors, "")] };
}

// ---- inputs ----

const edgeValue = fc.constantFrom<unknown>(
  null,
  undefined,
  "",
  " ",
  "a",
  "ab",
  "abc",
  "red",
  "s",
  "l",
  "text",
  "number",
  0,
  -0,
  1,
  2,
  3,
  -5,
  100,
  101,
  1.5,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  [],
  {},
  ["a"],
  ["b", "c"],
  [1],
  ["x", "y", "z", "w"],
  [null],
  "user@example.com",
  "not-an-email",
  "2f1c8a4e-3b7d-4c1a-9e2f-5a6b7c8d9e0f",
  "abc1",
);
const anyValue = fc.oneof(
  { weight: 4, arbitrary: edgeValue },
  { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 2, arbitrary: fc.integer({ min: -10, max: 120 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.array(fc.constantFrom<unknown>("a", "b", "red", 1, null, true), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** Values likely to pass, per property, so that generated inputs are valid often enough. */
const LIKELY: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.string({ minLength: 2, maxLength: 8 }),
  count: fc.integer({ min: -5, max: 100 }),
  ratio: fc.double({ noNaN: true, noDefaultInfinity: true }),
  flag: fc.boolean(),
  colour: fc.constantFrom("red", "green", 3),
  size: fc.constantFrom("s", "l"),
  tags: fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  letters: fc.array(fc.constantFrom("a", "b"), { maxLength: 3 }),
  email: fc.constantFrom("user@example.com", "a.b@c.io"),
  id: fc.constant("2f1c8a4e-3b7d-4c1a-9e2f-5a6b7c8d9e0f"),
  code: fc.stringMatching(/^[a-z]{1,3}$/),
  note: fc.string({ minLength: 1, maxLength: 5 }),
  kind: fc.constantFrom("text", "number"),
  text: fc.string({ maxLength: 5 }),
  number: fc.integer(),
  label: fc.string({ maxLength: 5 }),
  retries: fc.nat(10),
  archived: fc.boolean(),
  even: fc.integer({ min: -50, max: 50 }).map((n) => n * 2),
  word: fc.string({ maxLength: 4 }).map((w) => `a${w}`),
};

function inputs(dto: Function): fc.Arbitrary<Record<string, unknown>> {
  const keys = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, "", true, false)
        .map((m) => m.propertyName),
    ),
  ];
  const value = (key: string) =>
    LIKELY[key] ? fc.oneof({ weight: 4, arbitrary: LIKELY[key] }, { weight: 1, arbitrary: anyValue }) : anyValue;
  const known = fc.record(Object.fromEntries(keys.map((key) => [key, value(key)])), { requiredKeys: [] });
  const extra = fc.dictionary(
    fc.constantFrom("extra", "toString", "hasOwnProperty", "__proto__", "constructor", "z"),
    fc.jsonValue({ maxDepth: 1 }),
    { maxKeys: 2 },
  );
  return fc.tuple(known, fc.option(extra, { freq: 4 })).map(([own, more]) => {
    const input: Record<string, unknown> = { ...own };
    for (const [key, value] of Object.entries(more ?? {}))
      Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
    return input;
  });
}

function simpleShape(dto: Function, input: Record<string, unknown>): boolean {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, "", true, false)
      .map((m) => m.propertyName),
  );
  const primitive = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
  return Object.keys(input).every(
    (key) => known.has(key) && (primitive(input[key]) || (Array.isArray(input[key]) && (input[key] as unknown[]).every(primitive))),
  );
}

function expectSameInstance(actual: object, expected: object, input: Record<string, unknown>): void {
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Reflect.ownKeys(actual)).toEqual(Reflect.ownKeys(expected));
  expect(actual).toStrictEqual(expected);
  for (const key of Object.keys(input))
    if (Array.isArray(input[key])) expect((actual as Record<string, unknown>)[key]).not.toBe(input[key]);
}

const RUNS = { seed: 20260728, numRuns: 400 };

describe("the DTO fast path", () => {
  it("compiles for simple DTOs only", () => {
    for (const dto of SIMPLE) expect([dto.name, compileFastPath(dto) !== undefined]).toEqual([dto.name, true]);
    for (const dto of [Nested, Typed, Transformed, Exposed, Excluded, Async, Shadowed, Bare])
      expect([dto.name, compileFastPath(dto)]).toEqual([dto.name, undefined]);
  });

  it.each([...SIMPLE, Nested, Typed, Transformed, Excluded].map((dto) => [dto.name, dto] as const))(
    "validates %s as the libraries do",
    async (_name, dto) => {
      const fast = compileFastPath(dto);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(inputs(dto), async (input) => {
          const expected = await libraries(dto as new () => object, input);
          const actual = await validateDto(dto as new () => object, input);
          expect(actual.ok).toBe(expected.ok);
          if (actual.ok) expectSameInstance(actual.value, expected.value!, input);
          else expect(actual.violations).toEqual(expected.violations);
          const alone = fast?.(input);
          if (alone !== undefined) {
            accepted++;
            expect(expected.ok).toBe(true);
            expectSameInstance(alone, expected.value!, input);
          } else if (fast !== undefined && expected.ok && simpleShape(dto, input)) {
            throw new Error(`the fast path left a simple valid input to the libraries: ${JSON.stringify(input)}`);
          }
        }),
        RUNS,
      );
      if (process.env.FAST_PATH_COUNTS) console.log(dto.name, accepted);
      if (fast !== undefined) expect(accepted > 0).toBe(dto !== Helper);
    },
  );

  it("leaves what is not a plain object to the libraries, with their verdict", async () => {
    class Loose {
      @IsOptional() @IsString() s?: string;
    }
    class Holder {
      s = "held";
    }
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { s: "x" });
    for (const input of [new Date(0), new Map([["s", "x"]]), new Set(["x"]), new Holder(), Promise.resolve({ s: "x" }), nullProto]) {
      const expected = await libraries(Loose, input as unknown as Record<string, unknown>);
      const actual = await validateDto(Loose, input);
      expect([input, actual.ok]).toEqual([input, expected.ok]);
      if (actual.ok) expect(actual.value).toStrictEqual(expected.value);
    }
  });

  it("keeps a valid input of a simple DTO away from class-validator", async () => {
    const validate = jest.spyOn(classValidator, "validate");
    try {
      const scalars = await validateDto(Scalars, { name: "Ana", count: 3, flag: true });
      const child = await validateDto(Child, { label: "x", archived: false });
      expect(scalars).toEqual({ ok: true, value: Object.assign(new Scalars(), { name: "Ana", count: 3, flag: true }) });
      expect(child.ok && [child.value instanceof Child, { ...child.value }]).toEqual([true, { label: "x", retries: 3, archived: false }]);
      expect(validate).not.toHaveBeenCalled();
      const refused = await validateDto(Scalars, { name: "A", count: 3, flag: true });
      expect(refused).toEqual({
        ok: false,
        violations: [{ field: "name", constraint: "minLength", message: "name must be longer than or equal to 2 characters" }],
      });
      expect(validate).toHaveBeenCalledTimes(1);
    } finally {
      validate.mockRestore();
    }
  });
});
