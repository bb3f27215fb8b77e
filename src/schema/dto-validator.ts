import { getMetadataStorage, validate, type ValidationError } from "class-validator";
import { clip } from "../protocol/clip";
import type { DtoClass } from "../protocol/dto-class";
import type { MaybePromise } from "../protocol/maybe-async";
import { isPlainObject } from "../protocol/plain-object";
import { classTransformer } from "./class-transformer-lazy";
import { compileFastPath, type FastPath } from "./dto-fast-path";
import { validationMetadataGeneration } from "./validation-metadata-cache";

/** One failed constraint: the dotted path of the field and the constraint's name and message. */
export interface FieldViolation {
  field: string;
  constraint: string;
  message: string;
}

export type DtoValidation<T> = { ok: true; value: T } | { ok: false; violations: FieldViolation[] };

const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/** How many violations a message shows; the rest are counted. */
const SHOWN_VIOLATIONS = 5;
const FIELD_CHARS = 64;
const MESSAGE_CHARS = 120;

const knownByDto = new WeakMap<Function, ReadonlySet<string>>();

/** The properties a DTO validates (its whitelist), inherited ones included; read once per DTO. */
function knownProperties(dto: Function): ReadonlySet<string> {
  let known = knownByDto.get(dto);
  if (!known)
    knownByDto.set(
      dto,
      (known = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(dto, "", true, false)
          .map((m) => m.propertyName),
      )),
    );
  return known;
}

/** Each DTO's fast path, compiled against the metadata class-validator held then. */
const fastPaths = new WeakMap<Function, { generation: number; fast: FastPath | undefined }>();

function fastPathOf(dto: Function): FastPath | undefined {
  const generation = validationMetadataGeneration();
  let compiled = fastPaths.get(dto);
  if (compiled === undefined || compiled.generation !== generation)
    fastPaths.set(dto, (compiled = { generation, fast: compileFastPath(dto) }));
  return compiled.fast;
}

/**
 * `validateDto` for one DTO, compiled now: call it at bootstrap, so that no request compiles. (The
 * compiled form is kept per DTO and compiled again only if class-validator learns new metadata.)
 */
export function dtoValidator<T extends object>(dto: DtoClass<T>): (plain: unknown) => MaybePromise<DtoValidation<T>> {
  fastPathOf(dto);
  return (plain) => validateDto(dto, plain);
}

/**
 * Transforms a plain object into a DTO instance (class-transformer) and validates it (class-validator).
 * Unknown properties are violations, so what the method receives is exactly what the schema describes.
 *
 * A valid input of a simple DTO (see `compileFastPath`) is accepted without the two libraries,
 * as the same instance they would have built; everything else, and every refusal with its
 * messages, goes through them. Unknown top-level properties are found here and left out before
 * the two libraries run: they would cost class-transformer work that grows with the square of an
 * object's keys.
 *
 * Synchronous when no library has to run (the fast path accepts, or the value is not an object);
 * a promise otherwise (class-validator's `validate` is asynchronous).
 */
export function validateDto<T extends object>(dto: DtoClass<T>, plain: unknown): MaybePromise<DtoValidation<T>> {
  if (plain === null || typeof plain !== "object" || Array.isArray(plain)) {
    return { ok: false, violations: [{ field: "(root)", constraint: "isObject", message: "arguments must be an object" }] };
  }
  // Only a plain object: class-transformer treats a Date, a Set, a thenable ... as what they are.
  const accepted = isPlainObject(plain) ? fastPathOf(dto)?.(plain) : undefined;
  if (accepted !== undefined) return { ok: true, value: accepted as T };
  return validateWithLibraries(dto, plain);
}

/**
 * The instance `validateDto` returns for `plain`, for a value it has already accepted (and that
 * cannot have changed since): built, not checked again. The fast path (which builds that very
 * instance, cheaper than class-transformer) when the DTO has one; class-transformer's
 * plainToInstance alone otherwise, without class-validator's asynchronous `validate`.
 */
export function instantiateAccepted<T extends object>(dto: DtoClass<T>, plain: object): T {
  const accepted = isPlainObject(plain) ? fastPathOf(dto)?.(plain) : undefined;
  if (accepted !== undefined) return accepted as T;
  return classTransformer().plainToInstance(dto, plain, { exposeDefaultValues: true }) as T;
}

/** `validateDto` through class-transformer and class-validator. */
async function validateWithLibraries<T extends object>(dto: DtoClass<T>, plain: object): Promise<DtoValidation<T>> {
  const known = knownProperties(dto);
  const unknown: FieldViolation[] = [];
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plain)) {
    if (known.has(key)) kept[key] = value;
    else unknown.push({ field: key, constraint: "whitelistValidation", message: `property ${key} should not exist` });
  }
  const instance = classTransformer().plainToInstance(dto, unknown.length === 0 ? plain : kept, { exposeDefaultValues: true }) as T;
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length === 0 && unknown.length === 0) return { ok: true, value: instance };
  return { ok: false, violations: [...unknown, ...flatten(errors, "")] };
}

/** What to write in a DTO that has no class-validator decorators: the fix every such message gives. */
export const UNDECORATED_DTO_FIX =
  "Give each property a type decorator such as @IsString(), @IsInt() or @IsBoolean() (with @IsOptional() when it may be left out; " +
  "a nested DTO takes @ValidateNested() and @Type(() => Nested)).";

/**
 * Whether class-validator knows any rule for `dto`, its own or inherited from a base class. It
 * refuses every instance of a class with none (`unknownValue`), so such a DTO is a registration
 * error. The lookup is the one `validate()` makes.
 */
export function hasValidationRules(dto: Function): boolean {
  return getMetadataStorage().getTargetValidationMetadatas(dto, "", false, false).length > 0;
}

function flatten(errors: ValidationError[], prefix: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    // class-validator reports a missing field as every rule it breaks (isString, maxLength, ...):
    // it is missing, and that is all there is to say.
    if (error.value === undefined && constraints.length > 0) {
      out.push({ field, constraint: "required", message: `${field} is required` });
      continue;
    }
    for (const [constraint, message] of constraints) out.push({ field, constraint, message });
    if (error.children?.length) out.push(...flatten(error.children, field));
  }
  return out;
}

/**
 * "name: isString (name must be a string); count: min (count must not be less than 1)": the first
 * five violations, each clipped, then "and N more". Never longer than about a kilobyte, however
 * many there are or however long the offending keys.
 */
export function describeViolations(violations: readonly FieldViolation[]): string {
  const shown = firstViolations(violations).map((v) => `${v.field}: ${v.constraint} (${v.message})`);
  const more = violations.length - shown.length;
  return more > 0 ? `${shown.join("; ")}; and ${more} more` : shown.join("; ");
}

/** The violations an error shows (the first five), with fields and messages clipped. */
export function firstViolations(violations: readonly FieldViolation[]): FieldViolation[] {
  return violations
    .slice(0, SHOWN_VIOLATIONS)
    .map((v) => ({ field: clip(v.field, FIELD_CHARS), constraint: v.constraint, message: clipWords(v.message, MESSAGE_CHARS) }));
}

/**
 * A message of at most about `max` characters, cut after a whole word and saying how much was
 * left out ("… (42 more characters)"), never in the middle of a word without saying so.
 */
export function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(1, max - 24);
  const space = text.lastIndexOf(" ", room);
  const kept = text.slice(0, space > room / 2 ? space : room).trimEnd();
  return `${kept}… (${text.length - kept.length} more characters)`;
}
