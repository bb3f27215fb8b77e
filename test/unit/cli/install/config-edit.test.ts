// Pins setServer, the one edit install makes to a host's file:
// - JSON: the entry added under its path (objects on the way created), replaced, or left as it is
//   (the same text: idempotent); other servers, other keys and comments (JSONC) kept; the
//   indentation of the file followed; a file that does not parse refused, naming it;
// - TOML (Codex): the server's own tables appended or replaced, everything else byte for byte
//   (comments, other tables, what follows); the same entry again changes nothing; a server
//   defined inline or in scattered tables, and a file that does not parse, refused.
import { setServer } from "../../../../src/cli/install/config-edit";
import type { ConfigTarget } from "../../../../src/cli/install/hosts";

const json: ConfigTarget = { file: "/x/mcp.json", format: "json", serversPath: ["mcpServers"] };
const nested: ConfigTarget = { file: "/x/.claude.json", format: "json", serversPath: ["projects", "/my/app", "mcpServers"] };
const toml: ConfigTarget = { file: "/x/config.toml", format: "toml", serversPath: ["mcp_servers"] };
const entry = { command: "/usr/bin/node", args: ["/app/dist/main.js", "--stdio"], env: { STATE_KEYS: "k" } };

describe("setServer, JSON", () => {
  it("adds to a missing file, then finds the same entry unchanged", () => {
    const added = setServer(json, undefined, "app", entry);
    expect(added.outcome).toBe("added");
    expect(JSON.parse(added.text)).toEqual({ mcpServers: { app: entry } });
    expect(setServer(json, added.text, "app", entry)).toEqual({ text: added.text, outcome: "unchanged" });
  });

  it("keeps other servers, keys and comments, and follows the file's indentation", () => {
    const text = '{\n    // mine\n    "theme": "dark",\n    "mcpServers": {\n        "other": { "command": "echo" }\n    }\n}\n';
    const edit = setServer(json, text, "app", entry);
    expect(edit.text).toContain("// mine");
    expect(edit.text).toContain('        "app": {');
    expect(edit.text.startsWith('{\n    // mine\n    "theme": "dark",')).toBe(true);
    const replaced = setServer(json, edit.text, "app", { ...entry, args: ["/app/dist/main.js"] });
    expect(replaced.outcome).toBe("replaced");
    expect(replaced.text).toContain('"other": { "command": "echo" }');
  });

  it("creates the objects on the way to a nested entry, beside what is there", () => {
    const text = JSON.stringify({ userID: "u", projects: { "/other": { mcpServers: { x: {} } } } });
    const edit = setServer(nested, text, "app", entry);
    expect(JSON.parse(edit.text)).toEqual({
      userID: "u",
      projects: { "/other": { mcpServers: { x: {} } }, "/my/app": { mcpServers: { app: entry } } },
    });
  });

  it("refuses a file that does not parse, or holds no object", () => {
    expect(() => setServer(json, '{ "mcpServers": { ', "app", entry)).toThrow("/x/mcp.json is not valid JSON");
    expect(() => setServer(json, "[]", "app", entry)).toThrow("does not hold a JSON object");
  });
});

describe("setServer, TOML", () => {
  const before = '# my settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "echo"\n\n# profiles\n[profiles.x]\nmodel = "y"\n';

  it("appends the server's tables and keeps every other byte", () => {
    const edit = setServer(toml, before, "app", entry);
    expect(edit.outcome).toBe("added");
    expect(edit.text.startsWith(before)).toBe(true);
    expect(edit.text.slice(before.length)).toBe(
      '\n[mcp_servers.app]\ncommand = "/usr/bin/node"\nargs = [ "/app/dist/main.js", "--stdio" ]\n\n[mcp_servers.app.env]\nSTATE_KEYS = "k"\n',
    );
    expect(setServer(toml, edit.text, "app", entry)).toEqual({ text: edit.text, outcome: "unchanged" });
  });

  it("replaces only the server's own tables, keeping what follows them", () => {
    const text = `${before.replace("# profiles\n", "")}\n[mcp_servers.app]\ncommand = "old"\n\n[mcp_servers.app.env]\nA = "1"\n\n# after\n[tui]\nx = 1\n`;
    const edit = setServer(toml, text, "app", { command: "new" });
    expect(edit.outcome).toBe("replaced");
    expect(edit.text).toBe(`${before.replace("# profiles\n", "")}\n[mcp_servers.app]\ncommand = "new"\n\n# after\n[tui]\nx = 1\n`);
  });

  it("refuses what it cannot edit as a table", () => {
    expect(() => setServer(toml, '[mcp_servers]\napp = { command = "x" }\n', "app", entry)).toThrow("defines the server app inline");
    expect(() => setServer(toml, '[mcp_servers.app]\ncommand = "x"\n[tui]\nx = 1\n[mcp_servers.app.env]\nA = "1"\n', "app", entry)).toThrow(
      "in parts apart from each other",
    );
    expect(() => setServer(toml, "model = \n", "app", entry)).toThrow("/x/config.toml is not valid TOML");
  });
});
