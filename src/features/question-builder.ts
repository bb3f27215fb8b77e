import { Elicitation } from "../elicitation/elicitation";
import type { DtoClass } from "../protocol/dto-class";
import type { ElicitSpec } from "./component-definition";
import type { ElicitedAnswers, QuestionSource, UrlQuestion } from "../decorators/elicit";
import type { InputRequest } from "../protocol/input-request";
import type { RequestContext } from "../protocol/request-context";

/** One question as asked this round: the wire input request and, for a DTO form, the DTO to validate with. */
export interface BuiltQuestion {
  request: InputRequest;
  dto?: DtoClass;
  mode: "form" | "url";
}

function isUrlQuestion(source: QuestionSource): source is UrlQuestion {
  return typeof source === "object" && source !== null && typeof (source as UrlQuestion).url === "string" && !("type" in source);
}

/** Builds the question for `spec` from the answers resolved so far (computed sources and messages see them). */
export function buildQuestion(spec: ElicitSpec, answers: ElicitedAnswers, ctx: RequestContext | undefined): BuiltQuestion {
  const source = spec.computed ? (spec.source as (a: ElicitedAnswers, c: RequestContext) => QuestionSource)(answers, ctx!) : (spec.source as QuestionSource);
  const message = typeof spec.options.message === "function" ? spec.options.message(answers, ctx!) : spec.options.message;
  if (isUrlQuestion(source)) {
    return { request: Elicitation.url(message, source.url), mode: "url" };
  }
  const request = Elicitation.form(message, source as never);
  return { request, dto: typeof source === "function" ? (source as DtoClass) : undefined, mode: "form" };
}

/** Bootstrap check of a static question: builds it once so an unsupported schema fails registration. */
export function checkStaticQuestion(spec: ElicitSpec): void {
  if (typeof spec.options.message === "function") {
    // The message needs answers; the schema alone can still be checked.
    const source = spec.source as QuestionSource;
    if (isUrlQuestion(source)) Elicitation.url("check", source.url);
    else Elicitation.form("check", source as never);
    return;
  }
  buildQuestion(spec, {}, undefined);
}
