import { dtoToFormSchema } from "../schema/dto-form-schema";
import type { FormElicitRequest, UrlElicitRequest } from "../protocol/elicit-request";
import type { FormSchema } from "../protocol/form-schema";
import { validateFormSchema } from "../schema/form-schema-subset";
import { frozenCopy } from "../protocol/frozen-copy";
import { InputRequestError } from "./input-request-error";
import { nonEmptyMessageProblem } from "./input-request-shape";
import { navigableUrlProblem } from "./navigable-url";
import { elicitationResponse } from "./response";
import { ValidatedRequests } from "./validated-requests";
import type { JsonObject } from "../protocol/wire-types";
import type { DtoClass } from "../protocol/dto-class";

/**
 * The imperative elicitation API. Build a bare `elicitation/create` request, put it in
 * `Result.inputRequired({ inputRequests: { key: request } })`, and on the retry read the answer with
 * `response`. Sampling and roots have their own objects (`Sampling`, `Roots`) with the same
 * build / response pair.
 */
export const Elicitation = {
  /**
   * A form-mode request. The schema (or the DTO's converted schema) is checked against the
   * restricted flat subset now; an `ElicitationSchemaError` names the property and keyword.
   * The result is a frozen copy, so what was validated is what is sent.
   *
   * @example const ask = Elicitation.form("Who should we contact?", { type: "object", properties: { email: { type: "string", format: "email" } }, required: ["email"] });
   */
  form(message: string, schemaOrDto: FormSchema | FormSchema<JsonObject> | DtoClass): FormElicitRequest {
    const messageProblem = nonEmptyMessageProblem(message);
    if (messageProblem !== undefined) throw new InputRequestError(`Invalid form elicitation: ${messageProblem}`);
    let requestedSchema: FormSchema;
    if (typeof schemaOrDto === "function") {
      requestedSchema = dtoToFormSchema(schemaOrDto);
    } else {
      validateFormSchema(schemaOrDto);
      requestedSchema = schemaOrDto;
    }
    const request: FormElicitRequest = {
      method: "elicitation/create",
      params: { mode: "form", message, requestedSchema },
    };
    return ValidatedRequests.add(frozenCopy(request));
  },

  /**
   * A URL-mode request: the client shows the URL, asks for consent and opens it. Only absolute
   * http(s) URLs with a host and no userinfo are accepted; the message must not be empty.
   *
   * @example const connect = Elicitation.url("Connect your calendar", "https://app.example.com/connect?flow=abc");
   */
  url(message: string, url: string): UrlElicitRequest {
    const problem = nonEmptyMessageProblem(message) ?? navigableUrlProblem(url);
    if (problem !== undefined) throw new InputRequestError(`Invalid URL elicitation: ${problem}`);
    const request: UrlElicitRequest = { method: "elicitation/create", params: { mode: "url", message, url } };
    return ValidatedRequests.add(frozenCopy(request));
  },

  /**
   * This round's answer to `request` under `key`:
   * - `{ status: "missing" }` when the round carries no answer under the key (ask again);
   * - `{ status: "answered", action: "accept", content }` for a form: content checked against the
   *   schema (required keys, types, integer vs number, enums, item counts, bounds, lengths in
   *   code points, formats as documented in formats.ts); keys the schema does not declare are
   *   dropped; defaults are never filled in;
   * - `{ status: "answered", action: "accept" }` for a URL: the user consented to open it, which
   *   does not mean the outside step is done;
   * - `{ status: "answered", action: "decline" | "cancel" }` (any content is ignored).
   * A present but invalid answer (a `null` entry included) throws `McpError` -32602
   * "Invalid elicitation response" with `data: { key, reason }`, reason naming the rule
   * (e.g. "content.age: maximum"), never the submitted value.
   *
   * @example const answer = Elicitation.response(ctx, "contact", ask); if (answer.status === "missing") return Result.inputRequired({ inputRequests: { contact: ask } });
   */
  response: elicitationResponse,
};
