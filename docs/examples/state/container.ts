import { StateSealer } from "roundtrip-mcp";

export const fromEnv = new StateSealer({ keysFromEnv: "STATE_KEYS", ttl: 600 });
export const ring = new StateSealer({
  keys: [
    { id: "2026-08", secret: Buffer.from(process.env.STATE_KEY_AUG ?? "", "base64") },
    { id: "2026-07", secret: Buffer.from(process.env.STATE_KEY_JUL ?? "", "base64") },
  ],
});
