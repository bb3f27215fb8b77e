import type * as ClassTransformer from "class-transformer";

/*
 * class-transformer's entry (its decorators, options and executor: 34 modules), loaded by the
 * first DTO that takes the libraries' path instead of with the package: the metadata the bootstrap
 * reads comes from its storage alone (transformer-metadata.ts), so a stdio server answers its
 * first `server/discover` without it (issue 24). An app whose DTOs use `@Type` or `@Transform`
 * loads it with them.
 */
let entry: typeof ClassTransformer | undefined;

/** `class-transformer`, loaded on the first call. */
export function classTransformer(): typeof ClassTransformer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at first use (startup)
  return (entry ??= require("class-transformer") as typeof ClassTransformer);
}
