import type { JsonObject } from "../protocol/wire-types";
import type { ComponentDefinition, ElicitSpec } from "./component-definition";

/** One `@Elicit` question of a component, as its declaration says. */
export interface QuestionDescription {
  readonly key: string;
  /** The round (1-based) it is first asked in: every question it waits for (`after`) comes in an earlier one. */
  readonly round: number;
  /** "form" or "url"; "computed" for a question computed from earlier answers. */
  readonly mode: "form" | "url" | "computed";
  /** The message, or undefined when it is computed from earlier answers. */
  readonly message?: string;
  readonly after: readonly string[];
  /** What a decline or cancel does (`ElicitOptions.onDecline`). */
  readonly onDecline: "end" | "optional" | "outcome";
  /** A form question's `requestedSchema`, as the client gets it (static questions only). */
  readonly requestedSchema?: JsonObject;
  /** A URL question's address (static questions only). */
  readonly url?: string;
}

/** One component: what a client lists, and what only its declaration says. */
export interface ComponentDescription {
  readonly kind: "tool" | "resource" | "prompt";
  /** The tool or prompt name, or the resource's `uri` or `uriTemplate`. */
  readonly name: string;
  /** `Class.method`. */
  readonly implementation: string;
  /** The descriptor as `tools/list`, `resources/list`, `resources/templates/list` or `prompts/list` lists it. */
  readonly descriptor: JsonObject;
  /** Every scope a caller needs (they apply behind OAuth). */
  readonly scopes: readonly string[];
  /** The `@Elicit` questions, in the order they are asked. */
  readonly questions: readonly QuestionDescription[];
  /** Its rounds carry sealed state (it has `@Elicit` or `@OperationId` parameters). */
  readonly carriesState: boolean;
  /**
   * What features add, by feature name (`CompiledFeature.describe`): the tasks extension gives a
   * task tool's `support`, `ttlMs`, ...; the apps extension a tool's view and visibility, and a
   * view's HTML source, CSP, permissions, domain and border.
   */
  readonly features: Readonly<Record<string, JsonObject>>;
}

/** The app as `McpApp.describe()` reports it. */
export interface AppDescription {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  /** The features compiled, in order: the built-in ones, then `McpAppOptions.features`. */
  readonly features: readonly string[];
  readonly components: readonly ComponentDescription[];
  /**
   * What features say about themselves beyond any one component, by feature name
   * (`CompiledFeature.describeFeature`): the skills extension lists the skills it serves.
   */
  readonly featureFacts: Readonly<Record<string, JsonObject>>;
}

/** `component` described, with what each feature (by name) adds to it. */
export function describeComponent(
  component: ComponentDefinition,
  added: readonly (readonly [string, JsonObject | undefined])[],
): ComponentDescription {
  const rounds = new Map<string, number>();
  // Elicits are ordered so that every `after` dependency comes first.
  const questions = component.elicits.map((spec) => {
    const round = 1 + Math.max(0, ...spec.after.map((key) => rounds.get(key) ?? 0));
    rounds.set(spec.key, round);
    return describeQuestion(spec, round);
  });
  return {
    kind: component.ref.kind,
    name: component.ref.name,
    implementation: component.where,
    descriptor: component.descriptor,
    scopes: component.scopes,
    questions,
    carriesState: component.carriedFlow,
    features: Object.fromEntries(added.filter((entry): entry is readonly [string, JsonObject] => entry[1] !== undefined)),
  };
}

function describeQuestion(spec: ElicitSpec, round: number): QuestionDescription {
  const params = (spec.built?.request.params ?? {}) as { message?: string; requestedSchema?: JsonObject; url?: string };
  const message = typeof spec.options.message === "string" ? spec.options.message : undefined;
  return {
    key: spec.key,
    round,
    mode: spec.built?.mode ?? "computed",
    ...(message !== undefined && { message }),
    after: spec.after,
    onDecline: spec.options.onDecline ?? "end",
    ...(params.requestedSchema !== undefined && { requestedSchema: params.requestedSchema }),
    ...(params.url !== undefined && { url: params.url }),
  };
}
