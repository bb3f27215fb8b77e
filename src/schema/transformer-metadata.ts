import type { TransformationType } from "class-transformer";
import type { MetadataStorage } from "class-transformer/types/MetadataStorage";

/**
 * class-transformer's metadata (what `@Type`, `@Transform`, `@Expose` and `@Exclude` recorded), read
 * at bootstrap to convert and classify DTOs. The package ships no typings for this path.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped path of the package: no import to type-check
const storage = require("class-transformer/cjs/storage") as { defaultMetadataStorage: MetadataStorage };
export const transformerMetadata: MetadataStorage = storage.defaultMetadataStorage;

/**
 * class-transformer's `TransformationType.PLAIN_TO_CLASS`, from its enums module (which its storage
 * loads anyway) rather than its entry, which the bootstrap does not need (class-transformer-lazy.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped path of the package, as above
const enums = require("class-transformer/cjs/enums") as { TransformationType: typeof TransformationType };
export const PLAIN_TO_CLASS: TransformationType = enums.TransformationType.PLAIN_TO_CLASS;
