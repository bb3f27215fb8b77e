// URL-mode consent: the user is asked to open a local preview page. Accepting means consent only;
// the server fetches and opens nothing, so the outside step is always reported as not verified.
import { IsBoolean, IsIn } from "class-validator";
import { Scopes, Elicit, Result, Tool, type ElicitResult, type ToolResult } from "roundtrip-mcp";

/** A local address; nothing serves it and nothing fetches it. */
export const PREVIEW_URL = "http://localhost/preview?theme=current";
export const CONSENT_KEY = "consent";
export const CONSENT_MESSAGE = "Open the theme preview in your browser?";

export class PreviewOutcome {
  @IsIn(["accept", "decline", "cancel"]) consent!: "accept" | "decline" | "cancel";
  @IsBoolean() verified!: boolean;
}

// Over OAuth (npm run start:secured) a caller needs preferences:read; stdio and plain HTTP are not restricted.
@Scopes("preferences:read")
export class PreviewThemeTool {
  @Tool({
    description: "Asks consent to open a local theme preview (URL mode); opens nothing itself",
    output: PreviewOutcome,
    annotations: { readOnlyHint: true },
  })
  preview_theme(
    @Elicit(CONSENT_KEY, { url: PREVIEW_URL }, { message: CONSENT_MESSAGE, onDecline: "outcome" }) consent: ElicitResult,
  ): ToolResult {
    const outcome: PreviewOutcome = { consent: consent.action, verified: false };
    return Result.structured(outcome, `Consent: ${consent.action}. Preview not verified: nothing was fetched or opened.`);
  }
}
