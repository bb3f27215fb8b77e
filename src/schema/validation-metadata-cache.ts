import { getMetadataStorage } from "class-validator";

/**
 * class-validator resolves a class's rules on every `validate()` by scanning every decorated class
 * in the process (to find inherited rules), so per-request cost grows with the app's number of DTOs
 * (upstream: typestack/class-validator#2686, open). A class's resolved rules never change once its
 * module has loaded, so the framework memoizes the lookup, keyed by the call's arguments, and drops
 * the memo whenever new metadata is registered (a class defined later, a custom constraint).
 * Installed once, on the process-wide storage, when this module loads.
 */
type Lookup = (target: Function, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => unknown[];

const INSTALLED = Symbol.for("roundtrip-mcp.validation-metadata-cache");
const GENERATION = Symbol.for("roundtrip-mcp.validation-metadata-generation");

type Storage = Record<string | symbol, unknown>;

export function installValidationMetadataCache(): void {
  // as unknown as: the cache is kept as symbol-keyed fields on class-validator's storage, which its class does not declare.
  const storage = getMetadataStorage() as unknown as Storage & {
    getTargetValidationMetadatas: Lookup;
    addValidationMetadata: (...args: unknown[]) => void;
    addConstraintMetadata: (...args: unknown[]) => void;
  };
  if (storage[INSTALLED]) return;
  storage[INSTALLED] = true;
  storage[GENERATION] = 0;
  let memo = new WeakMap<Function, Map<string, unknown[]>>();
  const lookup = storage.getTargetValidationMetadatas.bind(storage) as Lookup;
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== "function") return lookup(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups ? groups.join("\u0001") : ""}`;
    let byArgs = memo.get(target);
    if (!byArgs) memo.set(target, (byArgs = new Map()));
    let found = byArgs.get(key);
    if (!found) byArgs.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  for (const name of ["addValidationMetadata", "addConstraintMetadata"] as const) {
    const original = storage[name].bind(storage);
    storage[name] = (...args: unknown[]) => {
      memo = new WeakMap();
      (storage[GENERATION] as number)++;
      original(...args);
    };
  }
}

/**
 * A number that changes whenever class-validator learns new metadata (a class defined later, a
 * custom constraint): what was compiled from the metadata before is then compiled again.
 */
export function validationMetadataGeneration(): number {
  // as unknown as: the generation is a symbol-keyed field installValidationMetadataCache put on the storage.
  return (getMetadataStorage() as unknown as Storage)[GENERATION] as number;
}

installValidationMetadataCache();
