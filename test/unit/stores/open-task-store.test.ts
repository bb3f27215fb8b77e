/*
 * Pins openTaskStore, the URL factory, and how the drivers load:
 * - `memory:` opens the memory store; `sqlite:<file>`, `sqlite://<file>` and `sqlite:///abs`
 *   open that file (a relative one from the working directory); `sqlite:` alone opens
 *   tasks.sqlite in the data directory: `dataDir`, else <tmpdir>/roundtrip-mcp/<appName> (the
 *   name made safe as a folder name), else <tmpdir>/roundtrip-mcp;
 * - an app's tasks feature opens `sqlite:` in the folder of the app's name: two apps with
 *   different names never share a file, and a dataDir given still wins;
 * - `postgres://` and `postgresql://` connect, and an unreachable database is a
 *   TaskStoreUnavailableError whose message carries no part of the URL (no password);
 * - any other URL is a TaskStoreConfigError naming the scheme and what is accepted, never the
 *   rest of the URL;
 * - drivers load on first use: importing the stores loads neither better-sqlite3 nor pg, a
 *   memory store neither, a SQLite store only better-sqlite3 (checked in a fresh process on the
 *   compiled code, which `npm test` builds first);
 * - a driver that is not installed (both are optional peer dependencies) is a TaskStoreConfigError
 *   naming the command that installs it: npm install better-sqlite3@12, npm install pg;
 * - a better-sqlite3 whose native binding is missing (its install script did not run or failed)
 *   is a TaskStoreConfigError that says the fix: npm rebuild better-sqlite3, allowScripts true.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import {
  DEFAULT_TASK_STORE_URL,
  SqliteTaskStore,
  TaskStoreConfigError,
  TaskStoreUnavailableError,
  defaultDataDir,
  openTaskStore,
} from "../../../src/stores";
import { McpApp, tasks } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-open-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("openTaskStore", () => {
  it("memory: opens the memory store", async () => {
    const store = await openTaskStore("memory:");
    expect(store.kind).toBe("memory");
    await store.close();
  });

  it.each([
    ["sqlite:/absolute/file", "sqlite:", (dir: string) => `${dir}/tasks-a.sqlite`],
    ["sqlite:///absolute/file", "sqlite://", (dir: string) => `${dir}/tasks-b.sqlite`],
    [
      "sqlite:relative/file (from the working directory)",
      "sqlite:",
      (dir: string) => path.relative(process.cwd(), `${dir}/tasks-c.sqlite`),
    ],
  ])("%s opens that file", async (_form, prefix, name) => {
    const file = name(folder);
    const store = await openTaskStore(`${prefix}${file}`);
    expect(store).toBeInstanceOf(SqliteTaskStore);
    expect(path.resolve((store as SqliteTaskStore).file)).toBe(path.resolve(file));
    await store.close();
    expect(existsSync(path.resolve(file))).toBe(true);
  });

  it("sqlite: alone opens tasks.sqlite in the data directory", async () => {
    expect(DEFAULT_TASK_STORE_URL).toBe("sqlite:");
    expect(defaultDataDir()).toBe(path.join(os.tmpdir(), "roundtrip-mcp"));
    const store = (await openTaskStore("sqlite:", { dataDir: path.join(folder, "data"), appName: "ignored" })) as SqliteTaskStore;
    expect(store.file).toBe(path.join(folder, "data", "tasks.sqlite"));
    await store.close();
  });

  it("names the default data directory after the app, as a safe folder name", () => {
    const root = path.join(os.tmpdir(), "roundtrip-mcp");
    expect(defaultDataDir("support-desk")).toBe(path.join(root, "support-desk"));
    expect(defaultDataDir("@acme/desk v2")).toBe(path.join(root, "_acme_desk_v2"));
    expect(defaultDataDir("..")).toBe(path.join(root, "__"));
    expect(defaultDataDir("")).toBe(root);
  });

  it("gives each app's tasks feature a SQLite file of its own, named after the app", async () => {
    const names = [`desk-${path.basename(folder)}`, `reports-${path.basename(folder)}`];
    try {
      const files = [];
      for (const name of names) {
        const app = McpApp.create({
          name,
          components: [],
          state: { secret: "t".repeat(40) },
          logger: new SilentLogger(),
          features: [tasks()],
        });
        await app.close(); // waits for the store it opened at start
        files.push(path.join(defaultDataDir(name), "tasks.sqlite"));
      }
      expect(files[0]).not.toBe(files[1]);
      for (const file of files) expect(existsSync(file)).toBe(true);
      const given = McpApp.create({
        name: names[0],
        components: [],
        state: { secret: "t".repeat(40) },
        logger: new SilentLogger(),
        features: [tasks({ storeOptions: { dataDir: folder } })],
      });
      await given.close();
      expect(existsSync(path.join(folder, "tasks.sqlite"))).toBe(true);
    } finally {
      for (const name of names) rmSync(defaultDataDir(name), { recursive: true, force: true });
    }
  });

  it.each(["postgres", "postgresql"])(
    "%s:// connects; an unreachable database is TaskStoreUnavailableError without the URL in the message",
    async (scheme) => {
      const url = `${scheme}://roundtrip:s3cret-password@127.0.0.1:${await closedPort()}/tasks`;
      const opening = openTaskStore(url);
      await expect(opening).rejects.toThrow(TaskStoreUnavailableError);
      const error = (await opening.catch((e: unknown) => e)) as Error;
      expect(error.message).toBe("The PostgreSQL task store is unavailable (ECONNREFUSED)");
      expect(error.message).not.toContain("s3cret");
    },
  );

  it.each([
    ["mysql://root:s3cret@db/tasks", 'Unknown task store scheme "mysql:"'],
    ["memory://", 'Unknown task store scheme "memory:"'],
    ["/var/lib/tasks.sqlite", "A task store URL needs a scheme"],
    ["", "A task store URL needs a scheme"],
  ])("refuses %j with TaskStoreConfigError", async (url, start) => {
    const opening = openTaskStore(url);
    await expect(opening).rejects.toThrow(TaskStoreConfigError);
    const { message } = (await opening.catch((e: unknown) => e)) as Error;
    expect(message).toBe(`${start}; expected memory:, sqlite:<file> (or sqlite: for the default file) or postgres://…`);
    expect(message).not.toContain("s3cret");
  });

  it("loads each driver on first use only", () => {
    const stores = path.resolve(__dirname, "../../../dist/src/stores/index.js");
    const script = `
      const loaded = () => ["better-sqlite3", "pg"].filter((name) => Object.keys(require.cache).some((f) => f.includes("/node_modules/" + name + "/")));
      const stores = require(${JSON.stringify(stores)});
      const seen = { imported: loaded() };
      new stores.MemoryTaskStore().close();
      seen.memory = loaded();
      new stores.SqliteTaskStore({ file: ${JSON.stringify(path.join(folder, "lazy.sqlite"))} }).close();
      seen.sqlite = loaded();
      console.log(JSON.stringify(seen));`;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script]).toString())).toEqual({
      imported: [],
      memory: [],
      sqlite: ["better-sqlite3"],
    });
  });

  it("says how to fix a missing native binding of better-sqlite3", () => {
    const stores = path.resolve(__dirname, "../../../dist/src/stores/index.js");
    // The binding loader throws exactly what it throws when the install script never ran.
    const script = `
      const path = require("path");
      const bindings = require.resolve("bindings", { paths: [path.dirname(require.resolve("better-sqlite3"))] });
      require.cache[bindings] = { id: bindings, filename: bindings, loaded: true, exports: () => { throw new Error("Could not locate the bindings file. Tried:\\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node"); } };
      const stores = require(${JSON.stringify(stores)});
      try { new stores.SqliteTaskStore({ file: ${JSON.stringify(path.join(folder, "nobinding.sqlite"))} }); }
      catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }`;
    const thrown = JSON.parse(execFileSync(process.execPath, ["-e", script]).toString()) as { name: string; message: string };
    expect(thrown.name).toBe("TaskStoreConfigError");
    expect(thrown.message).toContain("its install script (which downloads a prebuilt binding or compiles one) did not run or failed");
    expect(thrown.message).toContain("In your app, run npm rebuild better-sqlite3");
    expect(thrown.message).toContain('keep "allowScripts": { "better-sqlite3": true } in your package.json');
    expect(thrown.message).toContain("Could not locate the bindings file");
  });

  it.each([
    [
      "better-sqlite3",
      `new stores.SqliteTaskStore({ file: ${JSON.stringify("/nonexistent-dir-never-made/x.sqlite")} })`,
      "SQLite",
      "npm install better-sqlite3@12",
    ],
    ["pg", `await stores.PostgresTaskStore.open({ connectionString: "postgres://127.0.0.1:1/x" })`, "PostgreSQL", "npm install pg"],
  ])("says how to install %s when it is not installed", (driver, open, store, command) => {
    const stores = path.resolve(__dirname, "../../../dist/src/stores/index.js");
    // Resolves as if the app had not installed the driver (an optional peer dependency).
    const script = `
      const Module = require("module");
      const resolve = Module._resolveFilename;
      Module._resolveFilename = function (request, ...rest) {
        if (request === ${JSON.stringify(driver)}) { const e = new Error("Cannot find module '" + request + "'"); e.code = "MODULE_NOT_FOUND"; throw e; }
        return resolve.call(this, request, ...rest);
      };
      const stores = require(${JSON.stringify(stores)});
      (async () => {
        try { ${open}; console.log("opened"); }
        catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }
      })();`;
    const thrown = JSON.parse(execFileSync(process.execPath, ["-e", script]).toString()) as { name: string; message: string };
    expect(thrown).toEqual({
      name: "TaskStoreConfigError",
      message:
        `The ${store} task store needs the package "${driver}", which is not installed (roundtrip-mcp lists it as an optional peer dependency, ` +
        `so only apps that use this store install it). In your app, run: ${command}`,
    });
  });
});
