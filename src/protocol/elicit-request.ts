import type { ElicitationContent, FormSchema } from "./form-schema";

/** A bare form-mode `elicitation/create` input request (no jsonrpc, id or elicitationId). */
export type FormElicitRequest = {
  method: "elicitation/create";
  params: { mode: "form"; message: string; requestedSchema: FormSchema };
};

/**
 * A bare URL-mode `elicitation/create` input request. `elicitationId` is added by the framework
 * when the question is sent (stable for the same question of the same flow, in every era): 2025-11-25
 * requires it, and hosts that speak both eras refuse a URL question without it.
 */
export type UrlElicitRequest = {
  method: "elicitation/create";
  params: { mode: "url"; message: string; url: string; elicitationId?: string };
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
