import { Elicitation } from "../elicitation/elicitation";
import { questionDigest } from "../elicitation/question-digest";
import { dtoValidator } from "../schema/dto-validator";
import type { DtoClass } from "../protocol/dto-class";
import { encodeOnce } from "../protocol/encoded-json";
import type { BuiltQuestion, ElicitSpec } from "./component-definition";
import type { ElicitedAnswers, QuestionSource, UrlQuestion } from "../decorators/elicit";
import type { RequestContext } from "../protocol/request-context";

function isUrlQuestion(source: QuestionSource): source is UrlQuestion {
  return typeof source === "object" && source !== null && typeof (source as UrlQuestion).url === "string" && !("type" in source);
}

/** Builds the question for `spec` from the answers resolved so far (computed sources and messages see them). */
export function buildQuestion(spec: ElicitSpec, answers: ElicitedAnswers, ctx: RequestContext | undefined): BuiltQuestion {
  const source = spec.computed
    ? (spec.source as (a: ElicitedAnswers, c: RequestContext) => QuestionSource)(answers, ctx!)
    : (spec.source as QuestionSource);
  const message = typeof spec.options.message === "function" ? spec.options.message(answers, ctx!) : spec.options.message;
  if (isUrlQuestion(source)) {
    return { request: Elicitation.url(message, source.url), mode: "url" };
  }
  const request = Elicitation.form(message, source as never);
  return { request, dto: typeof source === "function" ? (source as DtoClass) : undefined, mode: "form" };
}

/**
 * A static question, prepared at bootstrap: built once now, so an unsupported schema fails
 * registration, and kept (with its digest) when its message is static too, so no round builds or
 * digests it again. A computed message needs the answers: such a question is built every round,
 * but its digest, which leaves the message out, is computed here all the same.
 */
export function prepareStaticQuestion(spec: ElicitSpec): Pick<ElicitSpec, "built" | "digest"> {
  if (typeof spec.options.message === "function") {
    const source = spec.source as QuestionSource;
    const request = isUrlQuestion(source) ? Elicitation.url("check", source.url) : Elicitation.form("check", source as never);
    return { digest: questionDigest(spec.key, request) };
  }
  const built = buildQuestion(spec, {}, undefined);
  if (built.dto !== undefined) dtoValidator(built.dto);
  // Sent unchanged every round it is asked: its JSON text is written once, here.
  encodeOnce(built.request);
  return { built, digest: questionDigest(spec.key, built.request) };
}
