// Child node processes for the SQLite fault tests: `nodeChild` runs a script and hands its stdout
// line by line; `holdLock` is a second process holding a lock on a SQLite file until released.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

const BETTER_SQLITE3 = require.resolve("better-sqlite3");

export interface NodeChild {
  readonly process: ChildProcess;
  /** The next line the child writes on stdout; rejects if it ends first. */
  nextLine(): Promise<string>;
  /** Its exit code, once its output is all read. */
  readonly exited: Promise<number | null>;
}

/** Runs `node -e script`, after `wrapper` (e.g. an `unshare` command line) when given. */
export function nodeChild(script: string, wrapper: string[] = []): NodeChild {
  const command = [...wrapper, process.execPath, "-e", script];
  const proc = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve, reject) => {
    proc.on("error", reject);
    // "close", not "exit": every line the child wrote has been read by then.
    proc.on("close", resolve);
  });
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  createInterface({ input: proc.stdout! }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  return {
    process: proc,
    exited,
    nextLine: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : Promise.race([
            new Promise<string>((resolve) => waiting.push(resolve)),
            exited.then((code) => Promise.reject(new Error(`the child exited (${code}) before writing a line`))),
          ]),
  };
}

/** A second process that runs `begin` (e.g. "BEGIN IMMEDIATE") on the file and holds it until `release()`, which rolls back. */
export async function holdLock(file: string, begin: string): Promise<{ release(): Promise<void> }> {
  const holder = nodeChild(`
    const db = new (require(${JSON.stringify(BETTER_SQLITE3)}))(${JSON.stringify(file)});
    db.exec(${JSON.stringify(begin)});
    console.log("locked");
    process.stdin.once("data", () => { db.exec("ROLLBACK"); db.close(); process.stdout.write("released\\n", () => process.exit(0)); });`);
  const line = await holder.nextLine();
  if (line !== "locked") throw new Error(`the lock holder said ${JSON.stringify(line)}`);
  let released: Promise<void> | undefined;
  return {
    release: () =>
      (released ??= (async () => {
        holder.process.stdin!.write("go\n");
        const said = await holder.nextLine();
        if (said !== "released") throw new Error(`the lock holder said ${JSON.stringify(said)}`);
        const code = await holder.exited;
        if (code !== 0) throw new Error(`the lock holder exited with ${code}`);
      })()),
  };
}
