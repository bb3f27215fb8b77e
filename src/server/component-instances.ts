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
      throw new RegistrationError(explainResolution(cls, error), { cause: error });
    }
  }
}

/** One step of tsyringe's error chain: the parameter at `position` of the class named `owner`. */
interface Link {
  readonly owner: string;
  readonly position: number;
}

const LINK = /^\s*Cannot inject the dependency (?:"[^"]*" )?at position #(\d+) of "(.*)" constructor\. Reason:$/;
const UNKNOWN_TYPE = /^TypeInfo not known for "(.*)"$/;
const UNREGISTERED = /^Attempted to resolve unregistered dependency token: "(.*)"$/;
const UNDEFINED_TYPE = /^Attempted to construct an undefined constructor/;
/** What an interface, a union or a primitive parameter type reflects as: nothing the container can build. */
const ERASED = new Set(["Object", "String", "Number", "Boolean", "Array", "Function", "Promise", "Map", "Set", "Symbol", "BigInt"]);
const INJECT_FIX =
  "Give the parameter @inject(TOKEN) (from tsyringe) and register TOKEN in the container before McpApp.create(), " +
  "e.g. container.register(TOKEN, { useClass: Implementation })";

/**
 * Turns what tsyringe threw while building `component` into a message naming the component, the
 * parameter (position, owner and type when known) and the fix. tsyringe nests one
 * "Cannot inject the dependency ... at position #i of "Owner" constructor. Reason:" line per
 * constructor it was inside, then its reason.
 */
function explainResolution(component: Function, error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split("\n");
  const chain: Link[] = [];
  let rest = 0;
  for (const line of lines) {
    const link = LINK.exec(line);
    if (!link) break;
    chain.push({ owner: link[2], position: Number(link[1]) });
    rest++;
  }
  const reason = lines
    .slice(rest)
    .map((l) => l.trim())
    .join(" ");
  const head = `${component.name}: the container cannot build this component (McpApp.create builds every component)`;
  const last = chain[chain.length - 1];
  if (last === undefined) {
    const own = UNKNOWN_TYPE.exec(reason);
    if (own && own[1] === component.name) {
      return `${head}: its constructor takes ${component.length} parameter(s) but ${component.name} is not @injectable(). Add @injectable() (from tsyringe) to ${component.name}.`;
    }
    return `${head}: its constructor threw: ${reason}`;
  }
  const through =
    chain.length > 1
      ? ` (reached through ${chain
          .slice(0, -1)
          .map((l) => `parameter ${l.position} of ${l.owner}`)
          .join(", then ")})`
      : "";
  const unknownType = UNKNOWN_TYPE.exec(reason);
  if (unknownType && ERASED.has(unknownType[1])) {
    return (
      `${head}: parameter ${last.position} of ${last.owner}${through} is typed with an interface, a union or a primitive ` +
      `(it reflects as ${unknownType[1]} at run time), which the container cannot build. ${INJECT_FIX}.`
    );
  }
  const param = describeParameter(component, chain);
  const where = `parameter ${last.position} of ${last.owner}${param === undefined ? "" : ` (${param})`}${through}`;
  if (unknownType) {
    const type = unknownType[1];
    return `${head}: ${where}: ${type} is not @injectable() and not registered in the container. Add @injectable() (from tsyringe) to ${type}, or register it in the container before McpApp.create().`;
  }
  const unregistered = UNREGISTERED.exec(reason);
  if (unregistered) {
    return `${head}: ${where}: that token is not registered in the container. Register it before McpApp.create() (container.register(token, { useValue | useClass | useFactory })).`;
  }
  if (UNDEFINED_TYPE.test(reason)) {
    return `${head}: ${where}: its type is undefined when the class is defined (a circular import, or a class declared below the one that uses it). Declare it first, or use @inject(delay(() => Type)) from tsyringe.`;
  }
  return `${head}: building ${where} threw: ${reason}`;
}

/** The type or token of the failing parameter, found by following the chain from the component; undefined when lost on the way. */
function describeParameter(component: Function, chain: readonly Link[]): string | undefined {
  let owner: unknown = component;
  let param: unknown;
  for (const link of chain) {
    if (typeof owner !== "function" || owner.name !== link.owner) return undefined;
    param = parameterOf(owner, link.position);
    owner = typeof param === "function" ? param : undefined;
  }
  if (param === undefined) return "type undefined";
  if (typeof param === "function") return `type ${param.name || "anonymous"}`;
  if (typeof param === "object" && param !== null && "token" in param) return `@inject(${tokenName((param as { token: unknown }).token)})`;
  return `@inject(${tokenName(param)})`;
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
