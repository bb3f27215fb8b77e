import "reflect-metadata";
import { McpApp, Result, Scopes, Tool, jwtVerifier } from "roundtrip-mcp";

@Scopes("notes:read")
export class Notes {
  @Tool({ description: "Lists notes" })
  list_notes() {
    return Result.structured({ notes: [] });
  }

  @Tool({ description: "Deletes every note", scopes: ["notes:admin"] })
  delete_notes() {
    return Result.text("deleted");
  }
}

export async function main(): Promise<void> {
  const app = McpApp.create({
    components: [Notes],
    state: { keysFromEnv: "STATE_KEYS" },
    scopeHierarchy: { notes: ["notes:read", "notes:admin"] },
  });
  await app.listen({
    host: "0.0.0.0",
    allowedHosts: ["mcp.example.com"],
    auth: { resource: "https://mcp.example.com/mcp", verifier: jwtVerifier({ issuer: "https://auth.example.com" }) },
  });
}
