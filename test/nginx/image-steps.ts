// The image of deploy/Dockerfile built without a container engine (`npm run test:image`): its
// instructions read with dockerfile-ast and carried out in a folder per stage (the build context
// is the repository, less .dockerignore's entries): WORKDIR, ENV, COPY (from the context, or
// --from an earlier stage), RUN (sh -c, in the stage's folder); then the last stage's CMD started
// with its ENV (PORT a free port, HOST 127.0.0.1) and its HEALTHCHECK command run against it,
// which must succeed. What it cannot do is say so: the base image is this machine's Node, and
// USER is checked (not root) by check-recipes.mjs, not switched to.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as readline from "node:readline";
import { DockerfileParser } from "dockerfile-ast";
import { freePort } from "../support/free-port";

const ROOT = path.resolve(__dirname, "../..");
const IGNORED = new Set(
  readFileSync(path.join(ROOT, ".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.includes("*") && !l.includes("/")),
);

interface Stage {
  readonly name: string;
  readonly root: string;
  workdir: string;
  readonly env: Record<string, string>;
}

function inStage(stage: Stage, target: string): string {
  return path.isAbsolute(target) ? path.join(stage.root, target) : path.join(stage.root, stage.workdir, target);
}

async function main(): Promise<void> {
  const started = Date.now();
  const work = mkdtempSync(path.join(os.tmpdir(), "roundtrip-image-"));
  const stages: Stage[] = [];
  try {
    const instructions = DockerfileParser.parse(readFileSync(path.join(ROOT, "deploy/Dockerfile"), "utf8")).getInstructions();
    let cmd: string[] = [];
    let health: string[] = [];
    for (const instruction of instructions) {
      const keyword = instruction.getKeyword();
      const args = instruction.getArguments().map((a) => a.getValue());
      const stage = stages.at(-1)!;
      if (keyword === "FROM") {
        const name = args[2] ?? String(stages.length);
        stages.push({ name, root: path.join(work, `stage-${name}`), workdir: "/", env: { PATH: process.env.PATH ?? "" } });
        mkdirSync(stages.at(-1)!.root, { recursive: true });
        console.log(`image: FROM ${args[0]} (this machine's Node ${process.version}) as ${name}`);
      } else if (keyword === "WORKDIR") {
        stage.workdir = args[0]!;
        mkdirSync(inStage(stage, "."), { recursive: true });
      } else if (keyword === "ENV") {
        const text = instruction.getArgumentsContent() ?? "";
        for (const [, name, value] of text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S+)/g)) stage.env[name!] = value!;
      } else if (keyword === "COPY") {
        // COPY's flags (dockerfile-ast types them on the Copy subclass only).
        const flags = (instruction as unknown as { getFlags(): { getName(): string; getValue(): string | null }[] }).getFlags();
        const from = flags.find((f) => f.getName() === "from")?.getValue() ?? undefined;
        const source = from === undefined ? undefined : stages.find((s) => s.name === from);
        const [dest, ...sources] = [args.at(-1)!, ...args.slice(0, -1)];
        for (const item of sources) {
          const origin = source === undefined ? path.join(ROOT, item) : inStage(source, item);
          const target =
            dest.endsWith("/") || sources.length > 1 ? path.join(inStage(stage, dest), path.basename(item)) : inStage(stage, dest);
          // .dockerignore applies to the build context only.
          cpSync(origin, target, { recursive: true, filter: (file) => source !== undefined || !IGNORED.has(path.basename(file)) });
        }
        console.log(`image: COPY ${instruction.getArgumentsContent()}`);
      } else if (keyword === "RUN") {
        const script = instruction.getArgumentsContent()!.replace(/\\\n/g, " ");
        console.log(`image: RUN ${script}`);
        execFileSync("sh", ["-c", script], { cwd: inStage(stage, "."), env: { ...process.env, ...stage.env }, stdio: "inherit" });
      } else if (keyword === "CMD") {
        cmd = JSON.parse(instruction.getArgumentsContent()!) as string[];
      } else if (keyword === "HEALTHCHECK") {
        health = JSON.parse(/CMD\s+(\[.*\])\s*$/s.exec(instruction.getArgumentsContent()!)![1]!) as string[];
      }
    }
    const final = stages.at(-1)!;
    const port = String(await freePort());
    const env = { ...process.env, ...final.env, PORT: port, HOST: "127.0.0.1" };
    const entry = inStage(final, ".");
    if (!existsSync(path.join(entry, cmd.at(-1)!))) throw new Error(`the image's CMD ${cmd.join(" ")} names a file the build did not make`);
    const child = spawn(cmd[0] === "node" ? process.execPath : cmd[0]!, cmd.slice(1), {
      cwd: entry,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the image's CMD exited with ${code} before it served`)));
    });
    console.log(`image: CMD ${cmd.join(" ")}: ${line}`);
    try {
      execFileSync(health[0] === "node" ? process.execPath : health[0]!, health.slice(1), { cwd: entry, env, stdio: "inherit" });
      console.log("image: HEALTHCHECK passed");
    } finally {
      child.kill("SIGTERM");
    }
    console.log(`image: built and served in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`image: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
