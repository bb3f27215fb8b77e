import { declareParam } from "./record-metadata";
import type { DtoClass } from "../protocol/dto-class";
import type { FormSchema } from "../protocol/form-schema";
import type { JsonObject } from "../protocol/wire-types";
import type { RequestContext } from "../protocol/request-context";

/** A URL-mode question: the user is asked to open `url` (consent only; nothing is fetched). */
export interface UrlQuestion {
  url: string;
}

/** What a question is built from: a DTO, a restricted form schema, or a URL. */
export type QuestionSource = DtoClass | FormSchema | FormSchema<JsonObject> | UrlQuestion;

/** Answers resolved so far, by key: the accepted content (or URL consent), or undefined when declined under `optional`. */
export type ElicitedAnswers = Readonly<Record<string, unknown>>;

/**
 * A question computed from earlier answers: an ARROW function (it has no prototype, which is how it is
 * told apart from a DTO class) returning the source to ask with.
 */
export type ComputedQuestion = (answers: ElicitedAnswers, ctx: RequestContext) => QuestionSource;

export interface ElicitOptions {
  /** Text shown to the user; may be computed from earlier answers. */
  message: string | ((answers: ElicitedAnswers, ctx: RequestContext) => string);
  /** Keys that must be resolved before this question is asked (their answers feed computed questions). */
  after?: string[];
  /**
   * What a decline or cancel does:
   * - "end" (default): the operation ends. A tool returns an isError result naming the question;
   *   a resource or prompt fails with -32602 and `data: { key, action }`.
   * - "optional": the parameter is `undefined` and the method runs.
   * - "outcome": the method receives the whole `ElicitResult` (`{ action, content? }`).
   */
  onDecline?: "end" | "optional" | "outcome";
}

/**
 * Marks a handler parameter as an answer the dispatcher must obtain from the user.
 * Missing answers are asked with `input_required`; accepted answers are carried in sealed state.
 *
 * @example handle(@Elicit("color", ColorForm, { message: "Pick a colour" }) color: ColorForm) { ... }
 */
export function Elicit(key: string, source: QuestionSource | ComputedQuestion, options: ElicitOptions): ParameterDecorator {
  return (target, propertyKey, index) => declareParam(target, propertyKey, { index, kind: "elicit", key, schema: source, options });
}
