import { declareComponent } from "./record-metadata";
import type { CommonComponentOptions } from "./component-options";
import type { Annotations } from "../protocol/content";
import type { CacheScope } from "../protocol/wire-types";
import type { CompletionProvider } from "./complete";

export interface ResourceOptions extends CommonComponentOptions {
  /** A fixed URI. Exactly one of `uri` and `uriTemplate`. */
  uri?: string;
  /** An RFC 6570 template with simple `{var}` expansions; each variable binds to an `@Arg("var")` parameter. */
  uriTemplate?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  /** Cache hint for `resources/read` results (milliseconds, >= 0). Default 0. */
  ttlMs?: number;
  /** Cache hint scope for `resources/read` results. Default "private". */
  cacheScope?: CacheScope;
  /** Completion providers for template variables, by variable name. */
  complete?: Record<string, CompletionProvider>;
}

/**
 * Declares a resource or resource template.
 *
 * @example @Resource({ uriTemplate: "notes://{id}", mimeType: "text/plain" })
 */
export function Resource(options: ResourceOptions): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    declareComponent(target, propertyKey, (methodName) => ({ kind: "resource", methodName, options }));
  };
}
