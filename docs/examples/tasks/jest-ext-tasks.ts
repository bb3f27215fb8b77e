import type { Config } from "jest";

/**
 * What a jest suite of a CommonJS project needs to load @modelcontextprotocol/ext-tasks 0.2.2,
 * which ships ES modules only (its `exports` name an `import` condition and nothing for
 * `require`): each entry mapped to its file, and those files compiled to CommonJS by ts-jest.
 * Spread it into jest.config.ts beside your own `moduleNameMapper` and `transform`.
 */
export const extTasksInJest = {
  moduleNameMapper: {
    "^@modelcontextprotocol/ext-tasks/(client|core|core/v1|core/v2|receiver)$": "<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js",
  },
  transform: {
    "^.+/node_modules/@modelcontextprotocol/ext-tasks/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: ["/node_modules/(?!@modelcontextprotocol/ext-tasks/)"],
} satisfies Config;
