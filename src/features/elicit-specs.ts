import type { ParamDeclaration } from "../decorators/component-declaration";
import type { ElicitSpec } from "./component-definition";
import { prepareStaticQuestion } from "./question-builder";
import { RegistrationError } from "./registration-error";
import { hasValidationRules } from "../schema/dto-validator";

const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The `@Elicit` questions of one method, checked and put in an order where every `after`
 * dependency comes first. A static question is built (and digested) once now, so an unsupported
 * schema fails registration instead of a request, and no round builds it again.
 */
export function elicitSpecs(declared: readonly ParamDeclaration[], where: string): ElicitSpec[] {
  const specs: ElicitSpec[] = [];
  for (const d of declared) {
    if (d.kind !== "elicit") continue;
    if (!KEY.test(d.key)) throw new RegistrationError(`${where}: @Elicit key "${d.key}" must be 1 to 64 of A-Za-z0-9_.-`);
    // Answers, questions and carried state are objects keyed by these keys (on the wire too):
    // assigning "__proto__" would replace an object's prototype instead of adding the key.
    if (d.key === "__proto__") throw new RegistrationError(`${where}: @Elicit key "__proto__" is reserved; choose another key`);
    if (specs.some((s) => s.key === d.key)) throw new RegistrationError(`${where}: @Elicit key "${d.key}" used twice`);
    const options = d.options ?? ({} as never);
    if (typeof options.message !== "string" && typeof options.message !== "function") {
      throw new RegistrationError(`${where}: @Elicit("${d.key}") needs a message`);
    }
    const onDecline = options.onDecline ?? "end";
    if (!["end", "optional", "outcome"].includes(onDecline))
      throw new RegistrationError(`${where}: @Elicit("${d.key}") onDecline must be "end", "optional" or "outcome"`);
    const place = `${where}: parameter ${d.index} (@Elicit("${d.key}"))`;
    // An arrow function has no prototype: that is how a computed question is told from a DTO class.
    const computed = typeof d.schema === "function" && !("prototype" in d.schema);
    if (!computed && isPlainFunction(d.schema)) {
      throw new RegistrationError(
        `${place}: ${d.schema.name || "the question"} is a function declared with \`function\`, so it has a prototype and reads as a DTO class. ` +
          "A question computed from earlier answers is an arrow function, (answers, ctx) => source; a DTO is a class with class-validator decorators.",
      );
    }
    const spec: ElicitSpec = { key: d.key, source: d.schema as ElicitSpec["source"], computed, options, after: options.after ?? [] };
    if (!computed) {
      try {
        Object.assign(spec, prepareStaticQuestion(spec));
      } catch (error) {
        throw new RegistrationError(`${place}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    specs.push(spec);
  }
  for (const s of specs) {
    for (const dep of s.after) {
      if (!specs.some((o) => o.key === dep))
        throw new RegistrationError(`${where}: @Elicit("${s.key}") is after "${dep}", which is not an @Elicit key of this method`);
    }
  }
  return topologicalOrder(specs, where);
}

/** A `function` (not a class) with no class-validator rules: a computed question written without an arrow. */
function isPlainFunction(source: unknown): source is Function {
  return typeof source === "function" && !/^class\b/.test(Function.prototype.toString.call(source)) && !hasValidationRules(source);
}

/** Dependencies first; a cycle is a registration error. */
function topologicalOrder(specs: readonly ElicitSpec[], where: string): ElicitSpec[] {
  const ordered: ElicitSpec[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (s: ElicitSpec, path: string[]) => {
    if (state.get(s.key) === "done") return;
    if (state.get(s.key) === "visiting")
      throw new RegistrationError(`${where}: @Elicit order has a cycle: ${[...path, s.key].join(" -> ")}`);
    state.set(s.key, "visiting");
    for (const dep of s.after)
      visit(
        specs.find((o) => o.key === dep)!,
        [...path, s.key],
      );
    state.set(s.key, "done");
    ordered.push(s);
  };
  for (const s of specs) visit(s, []);
  return ordered;
}
