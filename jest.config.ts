import type { Config } from "jest";
import { writeTemplateApps } from "./test/cli/template-apps";
// The tasks guide's jest setting for @modelcontextprotocol/ext-tasks (ES modules only), used here as shown there.
import { extTasksInJest } from "./docs/examples/tasks/jest-ext-tasks";

const config: Config = {
  preset: "ts-jest",
  testEnvironment: "node",
  // The template app of `roundtrip-mcp init`, once per combination of its variants, with its own tests.
  roots: ["<rootDir>/test", writeTemplateApps()],
  testMatch: ["**/*.test.ts"],
  // The PostgreSQL suites need a database: `npm run test:postgres` runs them (test/postgres/jest.config.ts);
  // the browser suite needs Chromium: `npm run test:browser` (test/browser/jest.config.ts).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/postgres/", "<rootDir>/test/browser/"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }], ...extTasksInJest.transform },
  transformIgnorePatterns: extTasksInJest.transformIgnorePatterns,
  setupFiles: ["reflect-metadata"],
  // Samples and docs import the package by name, as users do.
  moduleNameMapper: {
    "^roundtrip-mcp$": "<rootDir>/src/index.ts",
    "^roundtrip-mcp/testing$": "<rootDir>/src/testing/index.ts",
    "^roundtrip-mcp/stores$": "<rootDir>/src/stores/index.ts",
    "^roundtrip-mcp/features$": "<rootDir>/src/features/index.ts",
    ...extTasksInJest.moduleNameMapper,
  },
  testTimeout: 30000,
  // Most suites wait on child processes and sockets, not the CPU: one worker per core (jest's
  // default leaves one core idle) took npm test from 105 s to 61 s on a 2-core machine.
  maxWorkers: "100%",
};

export default config;
