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

/**
 * No hand-rolled crypto in src/ (issue 41): every HMAC is node:crypto's `createHmac`, every
 * comparison of a MAC, tag or secret is `timingSafeEqual`, JWTs are jose's. The lint refuses what
 * such code is made of: XOR (an HMAC's pads, a constant-time compare's loop), node:crypto's raw
 * `hash` and `createHash` outside the files that digest public text (a secret-prefixed hash is a
 * MAC made by hand), node:crypto reached any other way than a named import, and `===`/`!==` or
 * Buffer equality on a value named as a MAC, tag, signature or secret.
 * test/unit/architecture/no-hand-rolled-crypto.test.ts checks the rule against such code.
 */
const DIGEST_FILES = [
  "src/state/binding-digest.ts",
  "src/elicitation/question-digest.ts",
  "src/elicitation/elicitation-id.ts",
  "src/features/skills/skill-catalog.ts",
  "src/features/skills/skill-files.ts",
  "src/server/http/server-card.ts",
  "src/server/http/sessions/stream-tokens.ts",
  "src/features/list-cursor.ts",
  "src/dispatch/telemetry/mcp-attributes.ts",
  "src/stores/postgres-message-bus.ts",
];
const CRYPTO_FIX = "use node:crypto's createHmac for a MAC and timingSafeEqual to compare one (jose for JWTs), never a hand-written one";
const SECRET_NAME = "/^(mac|secret|signature)$|(Mac|Secret|Signature)$/";
const noHandRolledCrypto = (allowDigest) => [
  "error",
  {
    selector: "BinaryExpression[operator='^'], AssignmentExpression[operator='^=']",
    message: `XOR is how an HMAC's pads or a constant-time compare get written by hand: ${CRYPTO_FIX}.`,
  },
  ...(allowDigest
    ? []
    : [
        {
          selector: "ImportDeclaration[source.value=/^(node:)?crypto$/] > ImportSpecifier[imported.name=/^(hash|createHash)$/]",
          message: `A raw SHA-256 over a secret is a MAC made by hand: ${CRYPTO_FIX}. A digest of public text belongs in one of the files eslint.config.mjs lists in DIGEST_FILES.`,
        },
      ]),
  {
    selector: "ImportDeclaration[source.value=/^(node:)?crypto$/] > :matches(ImportNamespaceSpecifier, ImportDefaultSpecifier)",
    message: 'Import node:crypto\'s functions by name (`import { createHmac } from "node:crypto"`), so the lint sees what is used.',
  },
  {
    selector:
      "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?crypto$/], ImportExpression[source.value=/^(node:)?crypto$/]",
    message: "Import node:crypto's functions by name at the top of the file, so the lint sees what is used.",
  },
  {
    selector: `BinaryExpression[operator=/^[!=]==?$/]:not(:has(> Literal)):not(:has(> Identifier[name='undefined'])) > :matches(Identifier[name=${SECRET_NAME}], MemberExpression[property.name=${SECRET_NAME}], CallExpression[callee.property.name='slice'][callee.object.name=${SECRET_NAME}])`,
    message: `A MAC, tag or secret compared with ===/!== leaks where it differs through the time taken: ${CRYPTO_FIX}.`,
  },
  {
    selector: "CallExpression[callee.property.name='equals'], CallExpression[callee.object.name='Buffer'][callee.property.name='compare']",
    message: `Buffer equals/compare stop at the first difference: ${CRYPTO_FIX}.`,
  },
];

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
  { name: "no-hand-rolled-crypto", files: ["src/**/*.ts"], rules: { "no-restricted-syntax": noHandRolledCrypto(false) } },
  { name: "no-hand-rolled-crypto/digests", files: DIGEST_FILES, rules: { "no-restricted-syntax": noHandRolledCrypto(true) } },
);
