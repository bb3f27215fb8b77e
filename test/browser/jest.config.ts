import type { Config } from "jest";
import base from "../../jest.config";

// The browser suite: headless Chromium from Debian's package (/usr/bin/chromium, or CHROMIUM_PATH)
// driven by playwright-core; nothing downloads a browser. `npm run test:browser` builds first and
// runs it; .ci/run installs chromium with apt-get before it.
const config: Config = {
  ...base,
  rootDir: "../..",
  roots: ["<rootDir>/test/browser"],
  testPathIgnorePatterns: ["/node_modules/"],
  maxWorkers: 1,
  testTimeout: 120_000,
};

export default config;
