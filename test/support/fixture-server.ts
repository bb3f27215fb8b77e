// The stdio child of a fixture app: the compiled test/e2e/fixtures/serve-stdio.ts under dist/
// (tsconfig.build.json builds the fixtures; `npm test` builds first), so no child loads a
// TypeScript compiler. FIXTURE names the app; FIXTURE_PRINCIPAL, when set, is its localPrincipal.
import fs from "node:fs";
import path from "node:path";

const SERVE_STDIO = path.resolve(__dirname, "../../dist/test/e2e/fixtures/serve-stdio.js");

export interface FixtureCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** `node dist/test/e2e/fixtures/serve-stdio.js` serving `fixture`. */
export function fixtureCommand(fixture: string): FixtureCommand {
  if (!fs.existsSync(SERVE_STDIO)) throw new Error(`${SERVE_STDIO} is missing: run \`npm run build\` first (\`npm test\` does)`);
  return { command: process.execPath, args: [SERVE_STDIO], env: { FIXTURE: fixture } };
}
