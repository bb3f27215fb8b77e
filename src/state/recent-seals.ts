import type { StateBinding } from "../protocol/request-context";
import { bindingDigestOf, bindingTextOf } from "./binding-digest";
import { MAC_CHARS } from "./state-token";
import { sameMac } from "./token-mac";

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

/** Slots of the table: at most this many tokens remembered (a power of two). */
export const RECENT_SEALS = 512;
/** A token whose text, data and binding text together are longer is not remembered (the table holds at most 2 million characters). */
export const RECENT_SEAL_CHARS = 4096;

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
 * A table of `RECENT_SEALS` slots, a token's slot chosen by its MAC (random: the characters of an
 * HMAC), a newer token taking the slot of an older one; tokens over `RECENT_SEAL_CHARS` are not
 * kept. So no client can make it grow, and a round that never comes back costs one slot until a
 * newer token takes it. Not a Map: a Map with an entry added and deleted per round is rebuilt into
 * a new table every few rounds, and once one old table is promoted to the old generation it keeps
 * every later one, and every token in it, alive through young collections (measured: the old
 * generation of the benchmark's app grew from 19 to 40 MB; see `InFlightRequests`).
 */
export class RecentSeals {
  private readonly slots: (RecentSeal | undefined)[] = new Array<RecentSeal | undefined>(RECENT_SEALS).fill(undefined);

  remember(seal: RecentSeal): void {
    if (seal.token.length + seal.text.length + seal.body.length > RECENT_SEAL_CHARS) return;
    this.slots[slotOf(seal.token)] = seal;
  }

  /** What was remembered of `token`, forgotten now (a round's token is opened once): undefined if nothing. */
  take(token: string): RecentSeal | undefined {
    const slot = slotOf(token);
    const seal = this.slots[slot];
    if (seal === undefined || !isToken(seal.token, token)) return undefined;
    this.slots[slot] = undefined;
    return seal;
  }

  /** Forgets `seal` (a round's token, opened), unless a newer token took its slot already. */
  forget(seal: RecentSeal): void {
    const slot = slotOf(seal.token);
    if (this.slots[slot] === seal) this.slots[slot] = undefined;
  }

  /** What was remembered of `token`, kept (a token opened at every request, as a session id is). */
  peek(token: string): RecentSeal | undefined {
    const seal = this.slots[slotOf(token)];
    return seal !== undefined && isToken(seal.token, token) ? seal : undefined;
  }

  /** How many tokens are remembered. */
  get size(): number {
    let count = 0;
    for (const seal of this.slots) if (seal !== undefined) count++;
    return count;
  }
}

/**
 * The slot of a token, from the first three characters of its MAC (18 random bits for a token
 * this sealer made; any string of any length maps to some slot, and is then compared whole).
 */
export function slotOf(token: string): number {
  const mac = token.length - MAC_CHARS;
  return ((token.charCodeAt(mac) * 131 + token.charCodeAt(mac + 1)) * 131 + token.charCodeAt(mac + 2)) & (RECENT_SEALS - 1);
}

/**
 * Whether `given` is the remembered `token`: their MACs compared in constant time first
 * (`sameMac`, `timingSafeEqual`, as the full open compares them), so that a guess tells nothing
 * about where it went wrong; the rest, which only someone who already holds the MAC gets to, by `===`.
 */
function isToken(token: string, given: string): boolean {
  const mac = token.length - MAC_CHARS;
  return given.length === token.length && sameMac(given.slice(mac), token.slice(mac)) && token === given;
}

/**
 * Whether a token remembered as `seal` would open for `ctx` and the principal whose JSON text is
 * `principal`: the same principal and the same binding (its text, or its digest when the text was
 * too long to keep). When not, the full open decides (and logs why).
 */
export function isSealedFor(seal: RecentSeal, ctx: StateBinding, principal: string): boolean {
  if (seal.principal !== principal) return false;
  return seal.text !== "" ? seal.text === bindingTextOf(ctx) : seal.digest === bindingDigestOf(ctx);
}

/**
 * Why a token remembered as `seal`, presented for `ctx` and a principal it was not sealed for
 * (`isSealedFor` said no), is refused: `other-request` when the binding differs (whatever the
 * principal), else `other-principal`.
 */
export function mismatchOf(seal: RecentSeal, ctx: StateBinding): "other-request" | "other-principal" {
  const sameRequest = seal.text !== "" ? seal.text === bindingTextOf(ctx) : seal.digest === bindingDigestOf(ctx);
  return sameRequest ? "other-principal" : "other-request";
}
