import type { DependencyContainer } from "tsyringe";
import type { AppLogger } from "../protocol/app-logger";

/** tsyringe's Lifecycle.Transient (an enum of its own, not imported to keep this a type-only dependency). */
const TRANSIENT = 0;

/** What tsyringe keeps for a registered token (its InternalDependencyContainer.getRegistration). */
interface Registration {
  readonly provider: object;
  readonly options?: { readonly lifecycle?: number };
}

type RegistrationLookup = (token: unknown) => Registration | null | undefined;

/**
 * Warns, once per dependency, when two or more singleton components inject the same transient
 * dependency (an `@injectable()` class nobody registered, or one registered with a transient
 * class provider): each component then keeps an instance of its own, so what one stores the
 * other never sees, a trap that otherwise shows only as wrong answers ("Resource not found").
 */
export function warnSharedTransients(container: DependencyContainer, components: readonly Function[], logger: AppLogger): void {
  const lookup = (container as { getRegistration?: RegistrationLookup }).getRegistration;
  if (typeof lookup !== "function") return; // not tsyringe's own container: nothing to read
  const registrationOf: RegistrationLookup = (token) => lookup.call(container, token);
  const keptBy = new Map<Function, string[]>();
  for (const component of components) {
    if (!isShared(registrationOf(component))) continue;
    const seen = new Set<Function>();
    for (const dependency of constructorDependencies(component)) {
      if (seen.has(dependency) || !isTransient(registrationOf(dependency))) continue;
      seen.add(dependency);
      keptBy.set(dependency, [...(keptBy.get(dependency) ?? []), component.name]);
    }
  }
  for (const [dependency, owners] of keptBy) {
    if (owners.length < 2) continue;
    const name = dependency.name || "anonymous class";
    logger.warn(
      `McpApp.create: ${name} is transient (tsyringe builds a new one for each injection), and the singleton components ${owners.join(", ")} ` +
        `each keep an instance of their own: what one of them stores, the others never see (a resource then answers "Resource not found"). ` +
        `To share one, register it once in the app's container before McpApp.create() (container.registerSingleton(${name})) or mark it ` +
        `@scoped(Lifecycle.ContainerScoped); if each component should have its own, nothing is wrong.`,
      { dependency: name, components: owners },
    );
  }
}

/** The classes a constructor asks for: @inject tokens that are classes, else the reflected types. */
function constructorDependencies(component: Function): Function[] {
  const types = (Reflect.getMetadata("design:paramtypes", component) ?? []) as unknown[];
  const tokens = (Reflect.getOwnMetadata("injectionTokens", component) ?? {}) as Record<string, unknown>;
  const out: Function[] = [];
  for (let position = 0; position < Math.max(types.length, component.length); position++) {
    const token = Object.prototype.hasOwnProperty.call(tokens, String(position)) ? tokens[position] : types[position];
    if (typeof token === "function") out.push(token);
  }
  return out;
}

/** A component built once and kept: registered as a singleton or container-scoped. */
function isShared(registration: Registration | null | undefined): boolean {
  return registration != null && registration.options?.lifecycle !== undefined && registration.options.lifecycle !== TRANSIENT;
}

/** Built anew on every injection: unregistered (tsyringe builds an @injectable() class each time), or a transient class provider. */
function isTransient(registration: Registration | null | undefined): boolean {
  if (registration == null) return true;
  const provider = registration.provider as Record<string, unknown>;
  const byClass = typeof provider === "function" || "useClass" in provider;
  return byClass && (registration.options?.lifecycle ?? TRANSIENT) === TRANSIENT;
}
