// The five scripted workflows the demo drives, with every round it expects: what the server asks
// (key, mode, message, choices or URL), what the demo answers, and the exact final result.
// Written out literally, so the check does not borrow the sample's own constants.

/** An answer to one question, as an `inputResponses` entry. */
export type Answer = { action: "accept"; content?: Record<string, string> } | { action: "decline" } | { action: "cancel" };

export interface ExpectedQuestion {
  key: string;
  mode: "form" | "url";
  message: string;
  /** Form: the values offered for the form's one property, in order. */
  choices?: string[];
  /** URL mode: the address the user is asked to open. */
  url?: string;
}

export interface ScriptedRound {
  /** What the server must ask; empty for a state-only continuation (requestState, no inputRequests). */
  asks: ExpectedQuestion[];
  /** What the demo answers, by key. */
  answers: Record<string, Answer>;
}

export interface ScriptedRun {
  /** Names the run when a workflow has several (the URL consent answers). */
  label?: string;
  /** The input_required rounds, in order; one more request then completes. */
  rounds: ScriptedRound[];
  /** The final result as the official client returns it, `_meta` left out. */
  result: Record<string, unknown>;
}

export type Operation =
  | { method: "tools/call"; params: { name: string; arguments: Record<string, unknown> } }
  | { method: "resources/read"; params: { uri: string } }
  | { method: "prompts/get"; params: { name: string; arguments?: Record<string, string> } };

export interface Workflow {
  /** Short id used in the summary and in failure messages. */
  id: string;
  operation: Operation;
  runs: ScriptedRun[];
}

const COLOR_QUESTION: ExpectedQuestion = {
  key: "color",
  mode: "form",
  message: "Which colour do you prefer?",
  choices: ["red", "green", "blue"],
};

const style = (color: string, choices: string[]): ExpectedQuestion => ({
  key: "style",
  mode: "form",
  message: `Which ${color} style?`,
  choices,
});

const accept = (content?: Record<string, string>): Answer => ({ action: "accept", ...(content && { content }) });

const consentRun = (action: Answer["action"]): ScriptedRun => ({
  label: action,
  rounds: [
    {
      asks: [
        { key: "consent", mode: "url", message: "Open the theme preview in your browser?", url: "http://localhost/preview?theme=current" },
      ],
      answers: { consent: { action } },
    },
  ],
  result: {
    content: [{ type: "text", text: `Consent: ${action}. Preview not verified: nothing was fetched or opened.` }],
    structuredContent: { consent: action, verified: false },
  },
});

export const WORKFLOWS: readonly Workflow[] = [
  {
    id: "tool",
    operation: { method: "tools/call", params: { name: "choose_preferences", arguments: {} } },
    runs: [
      {
        rounds: [
          { asks: [COLOR_QUESTION], answers: { color: accept({ color: "green" }) } },
          { asks: [style("green", ["forest", "mint", "olive"])], answers: { style: accept({ style: "mint" }) } },
        ],
        result: {
          content: [{ type: "text", text: "Preferences chosen: green / mint" }],
          structuredContent: { color: "green", style: "mint" },
        },
      },
    ],
  },
  {
    id: "resource",
    operation: { method: "resources/read", params: { uri: "preferences://work/summary" } },
    runs: [
      {
        rounds: [
          { asks: [COLOR_QUESTION], answers: { color: accept({ color: "blue" }) } },
          { asks: [style("blue", ["navy", "sky", "teal"])], answers: { style: accept({ style: "sky" }) } },
        ],
        result: {
          contents: [{ uri: "preferences://work/summary", mimeType: "text/plain", text: "Preferences for profile work: blue / sky" }],
          ttlMs: 0,
          cacheScope: "private",
        },
      },
    ],
  },
  {
    id: "prompt",
    operation: { method: "prompts/get", params: { name: "preferences_prompt" } },
    runs: [
      {
        rounds: [
          { asks: [COLOR_QUESTION], answers: { color: accept({ color: "red" }) } },
          { asks: [style("red", ["crimson", "coral", "brick"])], answers: { style: accept({ style: "coral" }) } },
        ],
        result: {
          description: "Asks your preferences and turns them into a request for a theme",
          messages: [{ role: "user", content: { type: "text", text: "Suggest a colour theme for me. My preferences: red / coral." } }],
        },
      },
    ],
  },
  {
    id: "url-consent",
    operation: { method: "tools/call", params: { name: "preview_theme", arguments: {} } },
    runs: [consentRun("accept"), consentRun("decline"), consentRun("cancel")],
  },
  {
    id: "reset",
    operation: { method: "tools/call", params: { name: "reset_preferences", arguments: {} } },
    runs: [
      {
        rounds: [{ asks: [], answers: {} }],
        result: {
          content: [
            {
              type: "text",
              text: 'Preferences reset: nothing was stored, so nothing changed. Checkpoint "reset" opened and dropped; no state is carried further.',
            },
          ],
          structuredContent: { reset: true, checkpoint: "reset", stateDiscarded: true },
        },
      },
    ],
  },
];

/** Requests a run makes: its input_required rounds plus the completing one. */
export function requestCount(workflow: Workflow): number {
  return workflow.runs.reduce((sum, run) => sum + run.rounds.length + 1, 0);
}
