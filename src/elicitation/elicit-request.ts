import type { FormSchema } from "./form-schema";

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
