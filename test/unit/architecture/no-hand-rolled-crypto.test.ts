/*
 * Pins the lint rule that keeps crypto in src/ to node:crypto and jose (eslint.config.mjs,
 * "no-hand-rolled-crypto"), by linting code with the project's own ESLint config:
 * - what the sealer had before issue 41 is refused: its HMAC from XOR-ed pads and two raw hashes,
 *   its constant-time compare (an XOR loop), its tags (a secret-prefixed SHA-256);
 * - so are the other ways to write such code: node:crypto reached through a namespace, a default
 *   import, require() or import(); a MAC, signature or secret compared with ===/!==; Buffer
 *   equals/compare;
 * - createHmac, timingSafeEqual, a MAC checked against undefined and a digest of public text in a
 *   listed digest file pass (XOR stays refused there too);
 * - the files of src/ that hold secrets (state/, auth/) pass.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");

interface Linted {
  snippets: { ruleId: string | null; message: string }[][];
  files: string[][];
}

/** Lints in a child process (test/support/lint-snippets.mjs): jest cannot load the ESM config. */
function lint(request: { snippets: { code: string; file: string }[]; files: string[] }): Linted {
  const child = spawnSync(process.execPath, [path.join(ROOT, "test/support/lint-snippets.mjs")], {
    cwd: ROOT,
    input: JSON.stringify(request),
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`lint-snippets.mjs failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Linted;
}

const snippets: { code: string; file: string }[] = [];
/** Registers `code` as the file `file` of src/, to be linted with the others in one run (loading the lint takes seconds). */
function snippet(code: string, file = "src/state/example.ts"): number {
  return snippets.push({ code, file }) - 1;
}
let linted: Linted;
/** The rule's messages for the snippet `at`. */
const refusals = (at: number): string[] => linted.snippets[at]!.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);

// Excerpts of src/state/ as it was before issue 41 (commit 84469b5).
const OLD_PADS = `import { createHash, createHmac, hash } from "node:crypto";
export function pads(key: Buffer): Buffer[] {
  const padded = Buffer.alloc(64);
  (key.length > 64 ? createHash("sha256").update(key).digest() : key).copy(padded);
  const innerPad = Buffer.alloc(64);
  const outer = Buffer.alloc(96);
  for (const [i, byte] of padded.entries()) {
    innerPad[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  outer.write(hash("sha256", innerPad, "binary"), 64, "latin1");
  return [innerPad, outer, createHmac("sha256", key).digest()];
}
`;
const OLD_EQUAL_TEXT = `export function equalText(given: string, expected: string): boolean {
  const length = expected.length;
  if (given.length !== length || length > 64) return false;
  let difference = 0;
  for (let i = 0; i < length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}
`;
const OLD_TAG = `import { hash } from "node:crypto";
export function keyedTag(tagKey: string, label: string, input: string, chars: number): string {
  return hash("sha256", \`\${tagKey}\\0\${label}\\0\${input}\`, "base64url").slice(0, chars);
}
`;

const OLD = { pads: snippet(OLD_PADS), equalText: snippet(OLD_EQUAL_TEXT), tag: snippet(OLD_TAG) };
const INDIRECT = [
  `import * as crypto from "node:crypto";\nexport const tag = (k: string) => crypto.createHash("sha256").update(k).digest();`,
  `import crypto from "crypto";\nexport const tag = (k: string) => crypto.hash("sha256", k);`,
  `export const tag = (k: string) => require("node:crypto").hash("sha256", k);`,
  `export const tag = async (k: string) => (await import("node:crypto")).hash("sha256", k);`,
].map((code) => snippet(code));
const COMPARES = [
  `export const ok = (mac: string, token: string) => token.slice(-43) === mac;`,
  `export const ok = (given: string, expectedMac: string) => given !== expectedMac;`,
  `export const ok = (a: { signature: string }, b: string) => b == a.signature;`,
  `export const ok = (clientSecret: string, presented: string) => presented === clientSecret;`,
  `export const ok = (a: Buffer, b: Buffer) => a.equals(b);`,
  `export const ok = (a: Buffer, b: Buffer) => Buffer.compare(a, b) === 0;`,
].map((code) => snippet(code));
const GOOD = snippet(`import { createHmac, timingSafeEqual } from "node:crypto";
export function check(key: Buffer, text: string, mac: string | undefined): boolean {
  if (mac === undefined || mac.length !== 43) return false;
  const expected = Buffer.from(createHmac("sha256", key).update(text).digest("base64url"));
  return timingSafeEqual(Buffer.from(mac), expected);
}
`);
const DIGEST = `import { createHash, hash } from "node:crypto";\nexport const d = (t: string) => hash("sha256", t, "hex") + createHash("sha256").digest("hex");`;
const DIGEST_IN_DIGEST_FILE = snippet(DIGEST, "src/state/binding-digest.ts");
const DIGEST_ELSEWHERE = snippet(DIGEST, "src/state/state-token.ts");
const XOR_IN_DIGEST_FILE = snippet(`export const x = (a: number, b: number) => a ^ b;`, "src/state/binding-digest.ts");

beforeAll(() => {
  linted = lint({ snippets, files: ["src/state/*.ts", "src/auth/*.ts"] });
}, 120_000);

describe("the no-hand-rolled-crypto lint rule", () => {
  it("refuses the sealer's code from before issue 41", () => {
    const pads = refusals(OLD.pads);
    expect(pads.filter((m) => m.startsWith("XOR"))).toHaveLength(2);
    expect(pads.filter((m) => m.startsWith("A raw SHA-256"))).toHaveLength(2);
    expect(refusals(OLD.equalText)).toEqual([expect.stringMatching(/^XOR is how/)]);
    expect(refusals(OLD.tag)).toEqual([expect.stringMatching(/^A raw SHA-256 over a secret is a MAC made by hand/)]);
  });

  it("refuses node:crypto reached any other way than a named import", () => {
    expect(INDIRECT.map(refusals)).toEqual(Array(4).fill([expect.stringMatching(/^Import node:crypto's functions by name/)]));
  });

  it("refuses a MAC, signature or secret compared with ===/!==, and Buffer equals/compare", () => {
    expect(COMPARES.map((at) => refusals(at).length)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("lets createHmac, timingSafeEqual and a digest of public text in a digest file pass", () => {
    expect(refusals(GOOD)).toEqual([]);
    expect(refusals(DIGEST_IN_DIGEST_FILE)).toEqual([]);
    expect(refusals(DIGEST_ELSEWHERE)).toHaveLength(2);
    expect(refusals(XOR_IN_DIGEST_FILE)).toHaveLength(1);
  });

  it("passes the files of src/ that hold secrets", () => {
    expect(linted.files.length).toBeGreaterThan(10);
    expect(linted.files.flat()).toEqual([]);
  });
});
