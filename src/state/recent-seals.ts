import type { StateBinding } from "../protocol/request-context";
import { bindingDigestOf, bindingTextOf } from "./binding-digest";
import { MAC_CHARS } from "./state-token";

/** What a sealer remembers of a token it sealed: everything `open` would read back from it. */
export interface RecentSeal {
  /** The token itself: only this exact text is answered from memory. */
  readonly token: string;
  /** The binding's canonical text (`bindingTextOf`), or "" when it was too long to keep: then `digest` decides. */
  readonly text: string;
  /** The binding digest the token's MAC covers. */
  readonly digest: string;
  /** The principal's JSON text the MAC covers. */
  readonly principal: string;
  readonly issued: number;
  readonly expires: number;
  /** The data's JSON text, as sealed. */
  readonly body: string;
}

/** At most this many tokens remembered; the oldest are forgotten first. */
export const RECENT_SEALS = 1024;
/** At most this many characters (tokens, data and binding texts) remembered: at most 1 MB. */
export const RECENT_SEAL_CHARS = 1 << 19;

/**
 * The tokens a `StateSealer` sealed lately, by their exact text, with what opening them would
 * read. A token the sealer gave out comes back unchanged from a client on the next round, most
 * often to the same process (always over stdio, on one instance over HTTP); when it does, `open`
 * checks the binding, the principal and the lifetime against what it remembers instead of
 * decoding the token, computing its MAC and parsing it: the same verdict (a token equal to one
 * this sealer made, with this ring, for this binding and principal, is one whose MAC matches),
 * without the crypto. A token from another instance, one forgotten, or any other string takes the
 * full path.
 *
 * Bounded by count and by characters (oldest first out), so no client can make it grow: a round
 * that never comes back costs one entry until newer ones push it out.
 */
export class RecentSeals {
  /**
   * By the token's MAC (its last `MAC_CHARS` characters), not its whole text: hashing a key of
   * 43 characters, not of up to 16 KiB, at every seal and every open.
   */
  private readonly entries = new Map<string, RecentSeal>();
  private chars = 0;

  remember(seal: RecentSeal): void {
    const mac = macOf(seal.token);
    // The same data sealed for the same binding in the same second is the same token.
    const before = this.entries.get(mac);
    if (before !== undefined) this.forget(mac, before);
    this.entries.set(mac, seal);
    this.chars += charsOf(seal);
    while (this.entries.size > RECENT_SEALS || this.chars > RECENT_SEAL_CHARS) {
      // The map keeps insertion order: the first key is the oldest. The loop runs only while
      // something is remembered (the size or the characters are over a positive bound).
      const oldest = this.entries.keys().next().value as string;
      this.forget(oldest, this.entries.get(oldest)!);
    }
  }

  /** What was remembered of `token`, forgotten now (a round's token is opened once): undefined if nothing. */
  take(token: string): RecentSeal | undefined {
    const mac = macOf(token);
    const seal = this.entries.get(mac);
    if (seal === undefined || seal.token !== token) return undefined;
    this.forget(mac, seal);
    return seal;
  }

  /** What was remembered of `token`, kept (a token opened at every request, as a session id is). */
  peek(token: string): RecentSeal | undefined {
    const seal = this.entries.get(macOf(token));
    return seal !== undefined && seal.token === token ? seal : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(mac: string, seal: RecentSeal): void {
    this.entries.delete(mac);
    this.chars -= charsOf(seal);
  }
}

const macOf = (token: string): string => token.slice(token.length - MAC_CHARS);
const charsOf = (seal: RecentSeal): number => seal.token.length + seal.text.length + seal.body.length;

/**
 * Whether a token remembered as `seal` would open for `ctx` and the principal whose JSON text is
 * `principal`: the same principal and the same binding (its text, or its digest when the text was
 * too long to keep). When not, the full open decides (and logs why).
 */
export function isSealedFor(seal: RecentSeal, ctx: StateBinding, principal: string): boolean {
  if (seal.principal !== principal) return false;
  return seal.text !== "" ? seal.text === bindingTextOf(ctx) : seal.digest === bindingDigestOf(ctx);
}
