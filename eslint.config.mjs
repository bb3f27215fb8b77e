// ESLint flat config: typescript-eslint's recommended rules, plus import rules that mirror the
// floors of docs/architecture.md so an editor flags an upward import as it is typed.
// test/unit/architecture/floors.test.ts stays the check of record (it also finds cycles and
// `import("...")` types, which these rules do not see).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Bottom to top, the one list floors.test.ts reads too. `(entry)` is src/index.ts. */
const { floors: FLOORS, wings: WINGS } = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "test/unit/architecture/floors.json"), "utf8"),
);
const SDK = "@modelcontextprotocol/server";
/** Folder depths under src/ covered (today the deepest is src/features/tools/, depth 2). */
const MAX_DEPTH = 4;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The restrictions for the files of `floor` whose way up to src/ is `up` (a regex: `\.\./` per
 * folder), in one rule entry (a later `files` block replaces a rule's options, it does not add). */
function floorRule(floor, up) {
  const where = floor === "(entry)" ? "The main entry (src/*.ts)" : `A file of src/${floor}/`;
  const above = FLOORS.slice(FLOORS.indexOf(floor) + 1);
  const folders = above.filter((name) => name !== "(entry)");
  const patterns = [];
  if (folders.length > 0) {
    patterns.push({
      regex: `^${up}(${folders.map(escape).join("|")})(/|$)`,
      message: `${where} imports only from its own floor or a floor below it (docs/architecture.md, "Floors"). Move the shared code down a floor.`,
    });
  }
  if (above.includes("(entry)")) {
    patterns.push({
      regex: `^(${up.slice(0, -1)}|${up}index)$|^roundtrip-mcp(/|$)`,
      message: `src/${floor}/ sits below the main entry: import the file that defines the name, not src/index.ts or the package itself.`,
    });
  }
  if (floor !== "server") {
    patterns.push({
      regex: `^${escape(SDK)}(/|$)`,
      message: `Only src/server/ imports ${SDK} (docs/architecture.md): use the framework's own types from src/protocol/.`,
    });
  }
  if (floor === "decorators") {
    // Decorators only record metadata: other floors and packages give them types, never code.
    patterns.push({
      regex: `^(?!\\./)`,
      allowTypeImports: true,
      message: "Decorators only record metadata: from other floors and packages, import types only (`import type`).",
    });
  }
  return { "@typescript-eslint/no-restricted-imports": ["error", { patterns }] };
}

const floorBlocks = FLOORS.filter((floor) => floor !== "(entry)").flatMap((floor) =>
  Array.from({ length: MAX_DEPTH }, (_, i) => ({
    name: `floors/${floor}/depth-${i + 1}`,
    files: [`src/${floor}/${"*/".repeat(i)}*.ts`],
    rules: floorRule(floor, "\\.\\./".repeat(i + 1)),
  })),
);

/**
 * A floor with wings (src/server/): a file of a wing imports only from its own wing or a lower
 * tier (floors.json "wings"; `(top)` is the files at the floor's top, the highest tier). One block
 * per wing, after the floor's own, repeating the floor's patterns (a later block replaces them).
 */
const wingBlocks = Object.entries(WINGS).flatMap(([floor, tiers]) =>
  tiers.flatMap((tier, at) =>
    tier
      .filter((wing) => wing !== "(top)")
      .flatMap((wing) => {
        const above = tiers
          .slice(at)
          .flat()
          .filter((other) => other !== wing && other !== "(top)");
        return Array.from({ length: MAX_DEPTH - 1 }, (_, i) => {
          const rule = floorRule(floor, "\\.\\./".repeat(i + 2));
          const [, { patterns }] = rule["@typescript-eslint/no-restricted-imports"];
          const up = "\\.\\./".repeat(i);
          patterns.push({
            regex: `^(${up}\\.\\./(${above.map(escape).join("|")})(/|$)|${up}\\.\\./[^./][^/]*$)`,
            message: `A file of src/${floor}/${wing}/ imports only from its own wing or a lower tier (floors.json "wings": ${tiers.map((t) => t.join(" ")).join(" < ")}).`,
          });
          return { name: `wings/${floor}/${wing}/depth-${i + 1}`, files: [`src/${floor}/${wing}/${"*/".repeat(i)}*.ts`], rules: rule };
        });
      }),
  ),
);

export default tseslint.config(
  {
    name: "ignores",
    ignores: ["dist/**", "node_modules/**", "coverage/**", "test/conformance/results*/**", ".tmp/**", "**/*.js", "**/*.cjs"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    name: "project",
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Off: `Function` is the class type of what this code feeds and is fed by (TypeScript's own
      // ClassDecorator, reflect-metadata, class-validator's metadata storage, `obj.constructor`);
      // a constructor type instead would need a cast at most of its 70 uses (28 files).
      "@typescript-eslint/no-unsafe-function-type": "off",
      // `import x = require("...")` is typed; tests use it to spy on the module object itself.
      "@typescript-eslint/no-require-imports": ["error", { allowAsImport: true }],
      // A `let` read by closures before its one assignment (a handle made later) cannot be const.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // `_`-prefixed names are the house way to say "unused on purpose" (tsc's noUnused* agree).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    name: "floors/(entry)",
    files: ["src/*.ts"],
    rules: floorRule("(entry)", "\\./"),
  },
  ...floorBlocks,
  ...wingBlocks,
  // src/cli (the command and the template app it writes) reaches the package as a user's code does.
  ...Array.from({ length: MAX_DEPTH }, (_, i) => ({
    name: `floors/cli/depth-${i + 1}`,
    files: [`src/cli/${"*/".repeat(i)}*.ts`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^${"\\.\\./".repeat(i + 1)}|^roundtrip-mcp/(?!(testing|stores|features)$)`,
              message:
                "src/cli uses the package only through its public entries (roundtrip-mcp, /testing, /stores, /features), as an app does.",
            },
          ],
        },
      ],
    },
  })),
);
