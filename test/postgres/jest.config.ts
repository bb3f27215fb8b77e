// The suites that need a PostgreSQL database: run through `npm run test:postgres`, which starts a
// throwaway cluster (with-postgres.ts) and sets TEST_POSTGRES_URL. `npm test` never runs them.
import type { Config } from "jest";
import base from "../../jest.config";

const config: Config = {
  ...base,
  rootDir: "../..",
  roots: ["<rootDir>/test/postgres"],
  testPathIgnorePatterns: ["/node_modules/"],
};

export default config;
