// How HTTP callers authenticate: not at all here. Every caller is anonymous, and the listener binds
// 127.0.0.1 and checks Host and Origin, so only this machine reaches it. `roundtrip-mcp init --oauth`
// writes this file with an OAuth 2.1 resource server instead (docs/authorization.md).
import type { AuthOptions } from "roundtrip-mcp";

export function httpAuth(_port: number): AuthOptions | undefined {
  return undefined;
}
