// Pins what `npm start` (the built sample/preferences/main-http.js) offers hosts and catalogs:
// - its server card at /mcp/server-card, valid against the SEP-2127 draft's schema, naming the
//   URL it printed and agreeing with its server/discover;
// - the skills of its ./skills folder, listed by the official SkillsClient and every file read
//   and verified by it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { serverCardErrors } from "../support/discovery-schemas";
import { rpc } from "../support/raw-http";

const MAIN = path.resolve(__dirname, "../../dist/sample/preferences/main-http.js");

describe("npm start (the preferences sample over HTTP)", () => {
  it("serves a valid server card and its skills folder", async () => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: "0", STATE_KEYS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", () => reject(new Error("the sample exited before printing its URL")));
      });
      const url = /http:\/\/\S+/.exec(line)![0];
      const card = await (await fetch(`${url}/server-card`)).json();
      expect(serverCardErrors(card)).toEqual([]);
      expect(card).toMatchObject({
        name: "io.github.roundtrip-mcp/preferences",
        version: "1.0.0",
        title: "Preferences",
        remotes: [{ url }],
      });
      const discover = await rpc(url, "server/discover", {
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      });
      expect((discover.body!.result as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/serverInfo"]).toEqual({
        name: "roundtrip-mcp-preferences",
        version: card.version,
        title: card.title,
        description: card.description,
      });
      const client = new Client({ name: "preferences-discovery", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const skills = new SkillsClient(client);
        const { skills: entries } = await skills.list();
        expect(entries.map((s) => s.uri)).toEqual(["skill://display-preferences/SKILL.md"]);
        const [skill] = entries;
        for (const resource of skill!.resources === "dynamic" ? [] : skill!.resources)
          expect((await skills.read(skill!, resource.uri)).verified).toBe(true);
      } finally {
        await client.close();
      }
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
