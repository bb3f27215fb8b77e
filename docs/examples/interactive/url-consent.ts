import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, Elicit, Result, Tool, type ElicitResult } from "roundtrip-mcp";

export class LinkArgs {
  @IsString() account!: string;
}

/** Where the application records that the outside step (e.g. an OAuth callback) finished. */
export const linkedAccounts = new Set<string>();

export class Accounts {
  @Tool({ description: "Links a third-party account" })
  link(
    @Arg() args: LinkArgs,
    @Elicit("consent", { url: "https://accounts.example.com/connect" }, { message: "Connect your account", onDecline: "outcome" })
    consent: ElicitResult,
  ) {
    if (consent.action !== "accept") return Result.error(`Linking ${consent.action === "decline" ? "declined" : "cancelled"}.`);
    // Accept means the user agreed to open the page, not that they finished there: check, and ask again.
    if (!linkedAccounts.has(args.account)) return Result.reask("consent");
    return `Linked ${args.account}.`;
  }
}
