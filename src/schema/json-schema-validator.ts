import type Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv";
import type { FieldViolation } from "./dto-validator";
import type { JsonObject } from "../protocol/wire-types";
import { plainShape } from "./plain-shape";

export interface JsonSchemaValidatorOptions {
  /**
   * Stop at the first violation instead of collecting them all: the work on an invalid value is
   * then bounded by where it first fails (used for the wire shapes of params).
   */
  readonly firstOnly?: boolean;
}

/** ajv's 2020-12 class, loaded on first compile: an app whose schemas are all vouched for starts without ajv (83 modules). */
let ajvClass: typeof Ajv2020 | undefined;
function newAjv(options: ConstructorParameters<typeof Ajv2020>[0]): Ajv2020 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use, not with the package (startup)
  ajvClass ??= (require("ajv/dist/2020") as typeof import("ajv/dist/2020")).default;
  return new ajvClass(options);
}

/** A compilation left for later: made by the first value or by a warm-up, whichever comes first. */
class PendingCompile {
  fn: ValidateFunction | undefined;
  constructor(private readonly make: () => ValidateFunction) {}
  get(): ValidateFunction {
    if (this.fn === undefined) {
      this.fn = this.make();
      pending.delete(this.ref);
    }
    return this.fn;
  }
  readonly ref: WeakRef<PendingCompile> = new WeakRef(this);
}

/** Deferred compilations not made yet, held weakly: a check nobody holds any more is never compiled. */
const pending = new Set<WeakRef<PendingCompile>>();

/**
 * Makes one compilation that `compile(..., { deferred: true })` left for later, and tells whether
 * any remains: a server's background warm-up calls it in small steps once it has answered, so the
 * first request that needs the check does not pay for it.
 */
export function warmDeferredSchema(): boolean {
  for (const ref of pending) {
    pending.delete(ref);
    const compile = ref.deref();
    if (compile === undefined) continue;
    try {
      compile.get();
    } catch {
      // The first value it checks throws the same error, where a caller is there to report it.
    }
    break;
  }
  return pending.size > 0;
}

/**
 * The one meta-schema check of the process, made on first use. Compiling the 2020-12 meta-schema
 * is most of what compiling a first schema costs (about 120 ms of a loaded 2-core machine, against
 * 2 ms for the schema itself), and ajv does it once per instance: every validator of every app
 * would pay it again. So the validators compile with `validateSchema: false` and check each
 * schema here, against one compiled meta-schema shared by all of them.
 */
let metaCheck: Ajv2020 | undefined;

function checkAgainstMetaSchema(schema: JsonObject): void {
  metaCheck ??= newAjv({ allErrors: true, strict: false, validateFormats: false });
  // ajv's validateSchema throws on an unknown $schema; it returns false for an invalid schema.
  if (metaCheck.validateSchema(schema) === false) throw new Error(`schema is invalid: ${metaCheck.errorsText(metaCheck.errors)}`);
}

/**
 * Compiles raw JSON Schemas (2020-12 by default) once at bootstrap and validates values against them.
 * Network `$ref`s are never fetched (ajv resolves only what it is given).
 */
export class JsonSchemaValidator {
  private ajvInstance: Ajv2020 | undefined;

  constructor(private readonly options: JsonSchemaValidatorOptions = {}) {}

  private get ajv(): Ajv2020 {
    this.ajvInstance ??= newAjv({
      allErrors: this.options.firstOnly !== true,
      strict: false,
      validateFormats: false,
      validateSchema: false,
    });
    return this.ajvInstance;
  }

  /**
   * The check of values against `schema`. An invalid schema throws here, naming `where`; with
   * `deferred` the caller vouches the schema is valid (the framework's own shapes), and the
   * compilation waits for the first value or a warm-up (`warmDeferredSchema`), off the startup path.
   */
  compile(schema: JsonObject, where: string, options: { readonly deferred?: boolean } = {}): (value: unknown) => FieldViolation[] {
    // A vouched shape in the plain subset is checked without ajv, with ajv's errors (plain-shape.ts).
    const plain = options.deferred === true ? plainShape(schema, this.options.firstOnly !== true) : undefined;
    if (plain !== undefined) return (value) => violationsOf(plain(value));
    if (options.deferred !== true) {
      const fn = this.compiled(schema, where);
      return this.checkOf(() => fn);
    }
    const compile = new PendingCompile(() => this.compiled(schema, where));
    pending.add(compile.ref);
    return this.checkOf(() => compile.fn ?? compile.get());
  }

  private compiled(schema: JsonObject, where: string): ValidateFunction {
    try {
      checkAgainstMetaSchema(schema);
      return this.ajv.compile(schema);
    } catch (error) {
      throw new Error(`${where}: invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private checkOf(fnOf: () => ValidateFunction): (value: unknown) => FieldViolation[] {
    return (value) => {
      const fn = fnOf();
      if (fn(value)) return [];
      return violationsOf(fn.errors ?? []);
    };
  }
}

/** ajv's errors (or plain-shape.ts's, the same) as violations. */
function violationsOf(
  errors: readonly { readonly instancePath: string; readonly keyword: string; readonly params?: object; readonly message?: string }[],
): FieldViolation[] {
  return errors.map((e) => {
    // A missing property is reported at its own path ("/name is required"), not its parent's.
    const missing = e.keyword === "required" ? (e.params as { missingProperty?: unknown } | undefined)?.missingProperty : undefined;
    const pointer = typeof missing === "string" ? `${e.instancePath}/${missing}` : e.instancePath;
    return {
      field: pointer ? pointer.slice(1).replace(/\//g, ".") : "(root)",
      constraint: e.keyword,
      message: typeof missing === "string" ? `${pointer} is required` : `${pointer || "value"} ${e.message ?? "is invalid"}`,
    };
  });
}
