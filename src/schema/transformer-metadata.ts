import type { MetadataStorage } from "class-transformer/types/MetadataStorage";

/**
 * class-transformer's metadata (what `@Type`, `@Transform`, `@Expose` and `@Exclude` recorded), read
 * at bootstrap to convert and classify DTOs. The package ships no typings for this path.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped path of the package: no import to type-check
const storage = require("class-transformer/cjs/storage") as { defaultMetadataStorage: MetadataStorage };
export const transformerMetadata: MetadataStorage = storage.defaultMetadataStorage;
