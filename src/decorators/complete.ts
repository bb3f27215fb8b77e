import { COMPLETIONS_KEY } from "./metadata-keys";

/** What a completion provider sees: the partial value and the other arguments already filled in. */
export interface CompletionRequest {
  value: string;
  /** Other argument values the client sent in `context.arguments`. */
  arguments: Readonly<Record<string, string>>;
}

/** Returns candidate values (at most 100 are sent; `total` and `hasMore` are computed). */
export type CompletionProvider = (request: CompletionRequest) => string[] | Promise<string[]>;

/**
 * Declares completion for a prompt argument, next to the argument's DTO property.
 *
 * @example @Complete(({ value }) => ["en", "fr"].filter((l) => l.startsWith(value))) language!: string;
 */
export function Complete(provider: CompletionProvider): PropertyDecorator {
  return (target, propertyKey) => {
    const ctor = target.constructor;
    const own: Record<string, CompletionProvider> = { ...(Reflect.getOwnMetadata(COMPLETIONS_KEY, ctor) ?? {}) };
    own[String(propertyKey)] = provider;
    Reflect.defineMetadata(COMPLETIONS_KEY, own, ctor);
  };
}

export function completionProviders(ctor: Function): Record<string, CompletionProvider> {
  const found: Record<string, CompletionProvider> = {};
  for (let c: Function | null = ctor; c && c !== Object && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own: Record<string, CompletionProvider> | undefined = Reflect.getOwnMetadata(COMPLETIONS_KEY, c);
    if (own) for (const [k, v] of Object.entries(own)) if (!(k in found)) found[k] = v;
  }
  return found;
}
