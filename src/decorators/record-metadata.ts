import { COMPONENTS_KEY, PARAMS_KEY } from "./metadata-keys";

/** A component declaration as recorded: its kind, method and options (read back typed by `componentDeclarations`). */
export interface RecordedComponent {
  readonly kind: string;
  readonly methodName: string;
  readonly options: object;
}

/** A parameter declaration as recorded, keyed by its position (NestJS style). */
export interface RecordedParam {
  readonly index: number;
  readonly kind: string;
}

type Ctor = abstract new (...args: never[]) => unknown;

/** Adds a component declaration to a class; used by @Tool, @Resource and @Prompt. */
export function declareComponent(
  target: object,
  propertyKey: string | symbol | undefined,
  make: (methodName: string) => RecordedComponent,
): void {
  const ctor = (propertyKey === undefined ? target : target.constructor) as Ctor;
  if (typeof propertyKey === "symbol") {
    throw new TypeError(`${ctor.name}: a component method must have a string name`);
  }
  const methodName = propertyKey ?? "handle";
  const own: RecordedComponent[] = Reflect.hasOwnMetadata(COMPONENTS_KEY, ctor) ? Reflect.getOwnMetadata(COMPONENTS_KEY, ctor) : [];
  Reflect.defineMetadata(COMPONENTS_KEY, [...own, make(methodName)], ctor);
}

/** Adds a parameter declaration for method `propertyKey` of the class that owns `target`. */
export function declareParam<P extends RecordedParam>(target: object, propertyKey: string | symbol | undefined, entry: P): void {
  const ctor = typeof target === "function" ? target : target.constructor;
  const method = propertyKey === undefined ? "constructor" : String(propertyKey);
  if (method === "constructor") {
    throw new TypeError(`${ctor.name}: parameter decorators of roundtrip-mcp go on handler methods, not constructors`);
  }
  const own: RecordedParam[] = Reflect.getOwnMetadata(PARAMS_KEY, ctor, method) ?? [];
  if (own.some((p) => p.index === entry.index)) {
    throw new TypeError(`${ctor.name}.${method}: parameter ${entry.index} has more than one roundtrip-mcp decorator`);
  }
  Reflect.defineMetadata(PARAMS_KEY, [...own, entry], ctor, method);
}
