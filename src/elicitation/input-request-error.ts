/**
 * Thrown when an input request (elicitation, sampling or roots) is malformed: an empty message,
 * a URL that is not plain http(s), a sampling request without messages, an `elicitationId` on a form.
 * A programming error raised while building the request, never a wire error. Form schema
 * problems throw the more specific `ElicitationSchemaError`.
 *
 * @example throw new InputRequestError("the url must use http: or https:");
 */
export class InputRequestError extends Error {
  override readonly name = "InputRequestError";
}
