import type { ElicitationContent, FormSchema } from "./form-schema";

/** A bare form-mode `elicitation/create` input request (no jsonrpc, id or elicitationId). */
export type FormElicitRequest = {
  method: "elicitation/create";
  params: { mode: "form"; message: string; requestedSchema: FormSchema };
};

/** A bare URL-mode `elicitation/create` input request. */
export type UrlElicitRequest = {
  method: "elicitation/create";
  params: { mode: "url"; message: string; url: string };
};

export type ElicitRequest = FormElicitRequest | UrlElicitRequest;

/**
 * The user's answer to one elicitation, as the client sends it (MCP `ElicitResult`): accepted
 * (with the form's content; none for URL consent), declined, or cancelled. `@Elicit` parameters
 * with `onDecline: "outcome"` receive it with `content` typed as the DTO.
 *
 * @example const answer: ElicitResult = { action: "accept", content: { color: "green" } };
 */
export type ElicitResult<T = ElicitationContent> = { action: "accept"; content?: T } | { action: "decline" } | { action: "cancel" };
