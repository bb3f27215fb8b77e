import type { Config } from "jest";

const config: Config = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The PostgreSQL suites need a database: `npm run test:postgres` runs them (test/postgres/jest.config.ts).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/postgres/"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  setupFiles: ["reflect-metadata"],
  // Samples and docs import the package by name, as users do.
  moduleNameMapper: {
    "^roundtrip-mcp$": "<rootDir>/src/index.ts",
    "^roundtrip-mcp/testing$": "<rootDir>/src/testing/index.ts",
  },
  testTimeout: 30000,
};

export default config;
