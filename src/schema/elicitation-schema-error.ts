/** Where an unsupported or inconsistent elicitation form schema went wrong. */
export interface ElicitationSchemaErrorDetails {
  /** The DTO class name, when the schema came from a class-validator DTO. */
  readonly dto?: string;
  /** The form property, absent for a top-level problem. */
  readonly property?: string;
  /** The JSON Schema keyword at fault, e.g. "pattern", "minLength", "default". */
  readonly keyword?: string;
  /** The class-validator decorator at fault, e.g. "IsUUID". */
  readonly decorator?: string;
}

/**
 * Thrown when a form schema or DTO falls outside the restricted flat elicitation subset.
 * A programming error raised while building the request (at registration for `@Elicit`),
 * never a wire error. The message names the DTO, property and keyword or decorator.
 *
 * @example new ElicitationSchemaError('"pattern" is not supported', { property: "zip", keyword: "pattern" })
 */
export class ElicitationSchemaError extends Error {
  override readonly name = "ElicitationSchemaError";
  readonly details: ElicitationSchemaErrorDetails;
  /** The message without its "where" prefix. */
  readonly problem: string;

  constructor(problem: string, details: ElicitationSchemaErrorDetails = {}) {
    super(`${ElicitationSchemaError.prefix(details)}${problem}`);
    this.details = details;
    this.problem = problem;
  }

  private static prefix(details: ElicitationSchemaErrorDetails): string {
    const where = [
      details.dto === undefined ? "Invalid elicitation schema" : `Cannot use ${details.dto} as an elicitation schema`,
      details.property === undefined ? undefined : `property "${details.property}"`,
      details.decorator === undefined ? undefined : `@${details.decorator}`,
    ].filter((part): part is string => part !== undefined);
    return `${where.join(": ")}: `;
  }
}
