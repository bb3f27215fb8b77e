import "reflect-metadata";
import { McpApp, skills } from "roundtrip-mcp";

// ./skills/pdf-processing/SKILL.md, ./skills/acme/billing/refunds/SKILL.md, ... and one from code.
const catalog = skills({
  folder: "./skills",
  skills: [
    {
      path: "git-workflow",
      files: {
        "SKILL.md": "---\nname: git-workflow\ndescription: Follow this team's Git conventions.\n---\n\n# Git workflow\n",
        "references/COMMITS.md": "One change per commit; the message says why.\n",
      },
    },
  ],
  // Only callers whose token grants billing see, get and read the refunds skill.
  scopes: { "acme/billing/refunds": ["billing"] },
});

const app = McpApp.create({ components: [], state: { keysFromEnv: "STATE_KEYS" }, features: [catalog] });
void app.listen({ port: 3000 });

// After the folder changed: the new catalog, all or nothing, and resources/list_changed to listeners.
process.on("SIGHUP", () => {
  catalog.reload().then(
    (changes) => app.logger.info("skills reloaded", { ...changes }),
    (error: unknown) => app.logger.warn("skills not reloaded", { error: String(error) }),
  );
});
