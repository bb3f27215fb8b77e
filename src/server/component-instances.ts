import type { DependencyContainer } from "tsyringe";
import { RegistrationError } from "../features/registration-error";

/**
 * Builds every component once, when the app is created: a constructor dependency the container
 * cannot provide fails `McpApp.create()` naming the class, the parameter and the fix, instead of
 * reaching the model as tsyringe's text on the first call. Components are singletons unless the
 * app registered them otherwise, so the instance built here is the one that serves.
 */
export function buildComponents(container: DependencyContainer, classes: readonly Function[]): void {
  for (const cls of classes) {
    try {
      container.resolve(cls as never);
    } catch (error) {
      throw new RegistrationError(explainResolution(container, cls, error), { cause: error });
    }
  }
}

/** One step of the way from a component to the parameter that cannot be built: the parameter at `position` of `owner`. */
interface Link {
  readonly owner: Function;
  readonly position: number;
}

/** Why the container cannot build a class, found by resolving its parameters one by one (never by reading tsyringe's messages). */
type Problem =
  | { readonly kind: "not-injectable"; readonly owner: Function }
  | { readonly kind: "erased"; readonly type: Function }
  | { readonly kind: "unregistered" }
  | { readonly kind: "undefined-type" }
  | { readonly kind: "threw"; readonly error: unknown };

/** What an interface, a union or a primitive parameter type reflects as: nothing the container can build. */
const ERASED = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Map, Set, Symbol, BigInt]);
const INJECT_FIX =
  "Give the parameter @inject(TOKEN) (from tsyringe) and register TOKEN in the container before McpApp.create(), " +
  "e.g. container.register(TOKEN, { useClass: Implementation })";

/**
 * Why `owner` cannot be built, and the way to the parameter at fault (`chain`, extended in
 * place): each constructor parameter is resolved on its own, in order, and a class that fails is
 * followed into. A class whose parameters all resolve failed itself: without the type information
 * `@injectable()` records (no `design:paramtypes` for a class with parameters, or the class builds
 * when called by hand), or its constructor threw.
 */
function problemOf(container: DependencyContainer, owner: Function, error: unknown, chain: Link[]): Problem {
  const types = Reflect.getMetadata("design:paramtypes", owner) as unknown[] | undefined;
  if (owner.length > 0 && types === undefined) return { kind: "not-injectable", owner };
  const args: unknown[] = [];
  for (let position = 0; position < (types?.length ?? 0); position++) {
    const param = parameterOf(owner, position);
    const token = isTokenDescriptor(param) ? param.token : param;
    if (token === undefined) return (chain.push({ owner, position }), { kind: "undefined-type" });
    try {
      args.push(container.resolve(token as never));
      continue;
    } catch (inner) {
      chain.push({ owner, position });
      if (typeof token !== "function")
        return container.isRegistered(token as never, true) ? { kind: "threw", error: inner } : { kind: "unregistered" };
      if (ERASED.has(token)) return { kind: "erased", type: token };
      if (container.isRegistered(token as never, true)) return { kind: "threw", error: inner };
      return problemOf(container, token, inner, chain);
    }
  }
  if (owner.length === 0) return { kind: "threw", error };
  try {
    Reflect.construct(owner, args);
    return { kind: "not-injectable", owner };
  } catch (thrown) {
    return { kind: "threw", error: thrown };
  }
}

function isTokenDescriptor(value: unknown): value is { readonly token: unknown } {
  return typeof value === "object" && value !== null && "token" in value;
}

/** Turns why `component` cannot be built into a message naming the component, the parameter (position, owner and type when known) and the fix. */
function explainResolution(container: DependencyContainer, component: Function, error: unknown): string {
  const chain: Link[] = [];
  const problem = problemOf(container, component, error, chain);
  const head = `${component.name}: the container cannot build this component (McpApp.create builds every component)`;
  const last = chain[chain.length - 1];
  if (last === undefined) {
    if (problem.kind === "not-injectable") {
      return `${head}: its constructor takes ${component.length} parameter(s) but ${component.name} is not @injectable(). Add @injectable() (from tsyringe) to ${component.name}.`;
    }
    return `${head}: its constructor threw: ${messageOf(problem.kind === "threw" ? problem.error : error)}`;
  }
  const through =
    chain.length > 1
      ? ` (reached through ${chain
          .slice(0, -1)
          .map((l) => `parameter ${l.position} of ${l.owner.name}`)
          .join(", then ")})`
      : "";
  if (problem.kind === "erased") {
    return (
      `${head}: parameter ${last.position} of ${last.owner.name}${through} is typed with an interface, a union or a primitive ` +
      `(it reflects as ${problem.type.name} at run time), which the container cannot build. ${INJECT_FIX}.`
    );
  }
  const param = describeParameter(last);
  const where = `parameter ${last.position} of ${last.owner.name}${param === undefined ? "" : ` (${param})`}${through}`;
  switch (problem.kind) {
    case "not-injectable": {
      const type = problem.owner.name;
      return `${head}: ${where}: ${type} is not @injectable() and not registered in the container. Add @injectable() (from tsyringe) to ${type}, or register it in the container before McpApp.create().`;
    }
    case "unregistered":
      return `${head}: ${where}: that token is not registered in the container. Register it before McpApp.create() (container.register(token, { useValue | useClass | useFactory })).`;
    case "undefined-type":
      return `${head}: ${where}: its type is undefined when the class is defined (a circular import, or a class declared below the one that uses it). Declare it first, or use @inject(delay(() => Type)) from tsyringe.`;
    case "threw":
      return `${head}: building ${where} threw: ${messageOf(problem.error)}`;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The type or token of the parameter at fault. */
function describeParameter({ owner, position }: Link): string {
  const param = parameterOf(owner, position);
  if (param === undefined) return "type undefined";
  if (typeof param === "function") return `type ${param.name || "anonymous"}`;
  return `@inject(${tokenName(isTokenDescriptor(param) ? param.token : param)})`;
}

/** What tsyringe injects at `position`: an @inject token, else the reflected type. */
function parameterOf(owner: Function, position: number): unknown {
  const tokens = (Reflect.getOwnMetadata("injectionTokens", owner) ?? {}) as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(tokens, String(position))) return tokens[position];
  const types = (Reflect.getMetadata("design:paramtypes", owner) ?? []) as unknown[];
  return types[position];
}

function tokenName(token: unknown): string {
  if (typeof token === "function") return token.name;
  if (typeof token === "string") return JSON.stringify(token);
  return String(token);
}
