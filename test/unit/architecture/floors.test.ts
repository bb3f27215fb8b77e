// Pins the layout rules of src/ (docs/architecture.md):
// - every folder of src/ is a known floor, and a file imports only from its own floor or floors
//   below it, at run time and for types alike (import, import type, export from, import("..."));
// - no import cycle between files (and so none between folders);
// - only src/server imports the official SDK (@modelcontextprotocol/server);
// - decorators only record metadata: they import nothing but types from other floors;
// - src/cli (the roundtrip-mcp command, with the template app it writes) is the top floor and
//   reaches the package only through its public entries (roundtrip-mcp, /testing, /stores,
//   /features), as a user's code does: no relative import leaves src/cli;
// - no source file is over 350 lines;
// - inside a floor with wings (floors.json "wings": src/server/), a file imports only from its own
//   wing or a wing of a lower tier: checks/ no transport, the lane only checks/, the transports
//   (http/, stdio/) not each other, and only the bootstrap (files at the floor's top) the transports.
// Imports are read with the TypeScript parser itself (exact on comments, strings and type-only
// forms), not with regular expressions.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const SRC = path.resolve(__dirname, "../../../src");

/**
 * Bottom to top (floors.json, which eslint.config.mjs reads too). `stores` (durable task stores)
 * may be absent; `(entry)` is the main entry, src/index.ts.
 */
const LAYOUT = JSON.parse(readFileSync(path.join(__dirname, "floors.json"), "utf8")) as {
  floors: string[];
  wings: Record<string, string[][]>;
};
const FLOORS: readonly string[] = LAYOUT.floors;
/** Per floor with wings: its wings in tiers, bottom to top; `(top)` is the files at the floor's top. */
const WINGS: Readonly<Record<string, string[][]>> = LAYOUT.wings;
const MAX_LINES = 350;
const SDK = "@modelcontextprotocol/server";

interface Import {
  specifier: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        found.push({ specifier: node.arguments[0].text, typeOnly: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  // A variant of the template app imports the base app's files as siblings (tsconfig.json "rootDirs").
  const variant = /^(.*[\\/]cli[\\/]template)[\\/]variants[\\/][^\\/]+([\\/].*)$/.exec(base);
  if (variant && existsSync(`${variant[1]}${variant[2]}.ts`)) return `${variant[1]}${variant[2]}.ts`;
  throw new Error(`${path.relative(SRC, from)}: cannot resolve ${specifier}`);
}

/** The floor of a file: its top folder under src/, or "(entry)" for src/index.ts. */
function floorOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length === 1 ? "(entry)" : relative[0]!;
}

/** The wing of a file in a floor with wings: its folder under the floor, or "(top)". */
function wingOf(file: string): string {
  const relative = path.relative(SRC, file).split(path.sep);
  return relative.length === 2 ? "(top)" : relative[1]!;
}

/** The tier of a wing in its floor (-1: not a known wing). */
function tierOf(floor: string, wing: string): number {
  return WINGS[floor]!.findIndex((tier) => tier.includes(wing));
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const rel = (file: string) => path.relative(SRC, file);

describe("src/ floors", () => {
  it("reads the whole tree", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.map(rel)).toContain("protocol/errors.ts");
  });

  it("has only known floors", () => {
    const unknown = [...new Set(files.map(floorOf))].filter((floor) => !FLOORS.includes(floor));
    expect(unknown).toEqual([]);
  });

  it("imports only from the same floor or a floor below", () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      const floor = FLOORS.indexOf(floorOf(file));
      for (const { specifier } of imports) {
        const target = resolve(file, specifier);
        if (target === undefined) continue;
        const targetFloor = FLOORS.indexOf(floorOf(target));
        if (targetFloor > floor) upward.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("has only known wings in the floors with wings", () => {
    const unknown = [...new Set(files.filter((f) => WINGS[floorOf(f)] !== undefined).map((f) => `${floorOf(f)}/${wingOf(f)}`))].filter(
      (name) => tierOf(name.split("/")[0]!, name.split("/").slice(1).join("/")) < 0,
    );
    expect(unknown).toEqual([]);
  });

  it("imports, inside a floor with wings, only from the same wing or a lower tier", () => {
    expect(Object.keys(WINGS)).toContain("server");
    const across: string[] = [];
    for (const [file, imports] of graph) {
      const floor = floorOf(file);
      if (WINGS[floor] === undefined) continue;
      const wing = wingOf(file);
      for (const { specifier } of imports) {
        const target = resolve(file, specifier);
        if (target === undefined || floorOf(target) !== floor || wingOf(target) === wing) continue;
        if (tierOf(floor, wingOf(target)) >= tierOf(floor, wing)) across.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(across).toEqual([]);
  });

  it("has no import cycle between files", () => {
    const edges = new Map(
      [...graph].map(([file, imports]) => [
        file,
        imports.map((i) => resolve(file, i.specifier)).filter((t): t is string => t !== undefined),
      ]),
    );
    expect(cycles(edges).map((cycle) => cycle.map(rel).join(" -> "))).toEqual([]);
  });

  it("lets only src/server import the official SDK", () => {
    const outside = [...graph]
      .filter(([file]) => floorOf(file) !== "server")
      .flatMap(([file, imports]) =>
        imports.filter((i) => i.specifier === SDK || i.specifier.startsWith(`${SDK}/`)).map((i) => `${rel(file)} -> ${i.specifier}`),
      );
    expect(outside).toEqual([]);
  });

  it("keeps decorators to recording metadata: only types from other floors", () => {
    const runtime = [...graph]
      .filter(([file]) => floorOf(file) === "decorators")
      .flatMap(([file, imports]) =>
        imports
          .filter((i) => !i.typeOnly && (i.specifier.startsWith("../") || !i.specifier.startsWith(".")))
          .map((i) => `${rel(file)} -> ${i.specifier}`),
      );
    expect(runtime).toEqual([]);
  });

  it("lets src/cli reach the package only through its public entries", () => {
    const PUBLIC = ["roundtrip-mcp", "roundtrip-mcp/testing", "roundtrip-mcp/stores", "roundtrip-mcp/features"];
    const cli = [...graph].filter(([file]) => floorOf(file) === "cli");
    expect(cli.length).toBeGreaterThan(10);
    const reaching = cli.flatMap(([file, imports]) =>
      imports
        .filter(({ specifier }) => {
          const target = resolve(file, specifier);
          if (target !== undefined) return floorOf(target) !== "cli";
          return specifier.startsWith("roundtrip-mcp") && !PUBLIC.includes(specifier);
        })
        .map((i) => `${rel(file)} -> ${i.specifier}`),
    );
    expect(reaching).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = files.map((file) => [rel(file), lineCount(readFileSync(file, "utf8"))] as const).filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});

describe("cycles()", () => {
  it("finds a cycle and a self-import, and nothing in a chain", () => {
    expect(
      cycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
          ["d", ["d"]],
        ]),
      ),
    ).toEqual([["a", "b", "c"], ["d"]]);
    expect(
      cycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).toEqual([]);
  });
});

/** Lines as `wc -l` counts them. */
function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Every strongly connected component with a cycle in it (Tarjan), members in discovery order. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.unshift(member);
    } while (member !== node);
    if (members.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(members);
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return found;
}
