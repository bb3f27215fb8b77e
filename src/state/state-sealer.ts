import { type AppLogger, StderrLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import type { StateBinding } from "../protocol/request-context";
import { stateLifetimeOf } from "../protocol/state-lifetime";
import { type JsonValue, strictJsonStringify } from "../protocol/canonical-json";
import { KeyRing } from "./key-ring";
import { bindingDigestOf, lastBindingText } from "./binding-digest";
import { isSealedFor, mismatchOf, RecentSeals } from "./recent-seals";
import { bindingOf, decodeRt2Payload, RT2_VERSION, rt2MacOf } from "./rt2-token";
import { RejectionLog } from "./rejection-log";
import { StateTooLargeError } from "./state-too-large-error";
import { sameMac } from "./token-mac";
import { base64urlLength, MAC_CHARS, openPayload, parseFields, PREFIX, sealPayload, VERSION } from "./state-token";
import {
  callOptionsOf,
  checkTtl,
  INVALID_STATE_MESSAGE,
  STATE_TOKEN_MAX_BYTES,
  STATE_TTL_DEFAULT_SECONDS,
  type StateOptions,
  type StateRejectReason,
  type StateSealOptions,
} from "./state-options";

/** A well-formed token of any version; checked only to tell `malformed` from the later reasons. */
const TOKEN_SHAPE = /^rt([0-9]{1,3})\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
const DOT = 0x2e;
const CURRENT = String(VERSION);
const RT2 = String(RT2_VERSION);
const SOURCES = ["secret", "keys", "keysFromEnv", "ephemeral"] as const;
const SEALER_OPTIONS: ReadonlySet<string> = new Set([...SOURCES, "ttl", "now"]);

/**
 * Seals data into a signed `requestState` token bound to one request, one principal and a short
 * lifetime, and opens it again on the retry.
 *
 * The token is `rt3.<keyId>.<payload>.<mac>`: the payload is base64url of the JSON bytes
 * `[3, issued, expires, "", data]`; the MAC is one HMAC-SHA256 over those bytes *and* the
 * binding (a digest of the method with the canonical salient params, made once per request, and
 * the principal), which the token does not carry (`state-token.ts`): a token opens only for the
 * binding it was sealed for. Neither the arguments nor the principal appear in the token, in clear
 * or as a digest anyone without the key could check a guess against. **The data does**: tokens
 * are signed, not encrypted; never put a secret in them.
 *
 * A token this sealer made lately is opened from memory, with the same verdict and no MAC
 * (`recent-seals.ts`); when it is refused for another request or principal, the memory says which
 * (`other-request`, `other-principal`). The MAC alone cannot say why it does not match, so any
 * other refused token is `bad-mac`. `open` also reads the previous format, rt2 (`rt2-token.ts`),
 * during a rolling upgrade from 0.1.0.
 *
 * Salient params are the request params minus the top-level `_meta`, `inputResponses` and
 * `requestState`; everything nested is bound, an `_meta` inside `arguments` included. Object key
 * order does not matter, array order and value types do (`1` and `"1"` differ). JavaScript cannot
 * tell `1` from `1.0` once JSON is parsed, so those are the same param. The JSON-RPC id, the
 * transport and the retry fields never affect the binding.
 *
 * Every failure of `open` throws the same `McpError` -32602 "Invalid or expired request state";
 * the precise reason goes to the logger as `warn("requestState rejected", { reason, method })`,
 * the first of each reason per minute in full and the rest as counts (see `RejectionLog`).
 * Tokens can be reused until they expire: one-time operations need app-owned replay tracking.
 *
 * @example
 * const sealer = new StateSealer({ secret: process.env.STATE_SECRET! }, logger);
 * const token = sealer.seal({ step: 2 }, ctx, { principal: ctx.principal });
 * const data = sealer.open(token, ctx, { principal: ctx.principal });
 */
export class StateSealer {
  private readonly ring: KeyRing;
  private readonly defaultTtl: number;
  private readonly now: () => number;
  private readonly logger: AppLogger;
  private readonly rejections: RejectionLog;
  /** The tokens this sealer made lately: an open of one of them needs no MAC (see `RecentSeals`). */
  private readonly recent = new RecentSeals();

  /**
   * Checks the configuration and derives the keys; throws a TypeError or RangeError naming the
   * option for anything wrong. Error messages never contain secrets.
   *
   * @param env where `keysFromEnv` looks (default `process.env`).
   */
  constructor(options: StateOptions, logger?: AppLogger, env: Readonly<Record<string, string | undefined>> = process.env) {
    const owner = "StateSealer";
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
      throw new TypeError(`${owner}: options must be an object with \`secret\` or \`keys\` (or \`keysFromEnv\`, or \`ephemeral: true\`)`);
    }
    for (const name of Object.keys(options)) {
      if (!SEALER_OPTIONS.has(name)) {
        throw new TypeError(
          `${owner}: unknown option ${JSON.stringify(name)}; expected one of secret, keys, keysFromEnv or ephemeral, and optionally ttl and now`,
        );
      }
    }
    const given = SOURCES.filter((name) => options[name] !== undefined);
    if (given.length > 1) {
      throw new TypeError(
        given.length === 2 && given[0] === "secret" && given[1] === "keys"
          ? `${owner}: give either option \`secret\` or option \`keys\`, not both`
          : `${owner}: give only one of \`secret\`, \`keys\`, \`keysFromEnv\` or \`ephemeral\` (got ${given.join(" and ")})`,
      );
    }
    if (given.length === 0) {
      throw new TypeError(
        `${owner}: option \`secret\` (at least 32 random bytes) or option \`keys\` (a key ring) is required, ` +
          "or `keysFromEnv` (a key ring in an environment variable) or `ephemeral: true` (local development)",
      );
    }
    const { ttl, now } = options as { ttl?: unknown; now?: unknown };
    this.logger = logger ?? new StderrLogger();
    this.ring = KeyRing.fromSource(options, owner, env, this.logger);
    this.defaultTtl = ttl === undefined ? STATE_TTL_DEFAULT_SECONDS : checkTtl(ttl, `${owner}: option \`ttl\``);
    if (now !== undefined && typeof now !== "function") {
      throw new TypeError(`${owner}: option \`now\` must be a function returning milliseconds since the epoch`);
    }
    this.now = (now as (() => number) | undefined) ?? Date.now;
    this.rejections = new RejectionLog(this.logger, () => this.now());
  }

  /** Ids of the ring, the sealing key first. */
  get keyIds(): string[] {
    return this.ring.ids;
  }

  /**
   * Seals `data` (any JSON value) into a token bound to `ctx`'s method and salient params and to
   * `options.principal`, valid for `options.ttl` seconds (default: the sealer's; in a call of a
   * 2025 session, at least as long as the session waits for the client's answer, `answerTimeoutMs`
   * plus 60 s, as that state never leaves the server).
   *
   * Throws a TypeError for data that is not JSON (functions, symbols, bigints, non-finite
   * numbers, cycles, non-plain objects; `undefined` object properties are dropped), and a
   * `StateTooLargeError` when the token would exceed 16384 bytes (in a component, the client gets
   * -32602 "Request state too large").
   *
   * @example const token = sealer.seal({ answers }, ctx, { principal: ctx.principal, ttl: 120 });
   */
  seal(data: unknown, ctx: StateBinding, options: StateSealOptions): string {
    const { principal, ttl } = callOptionsOf("seal", options, this.defaultTtlFor(ctx));
    return this.sealFor(data, ctx, principal, ttl);
  }

  /**
   * `seal` for the framework's own carried state, which is JSON by construction (strings, finite
   * numbers and the flat answer values the elicitation check admitted): the strict-JSON walk is
   * skipped, every binding, principal and size check is kept. Data that is not JSON would be
   * written by JSON.stringify's rules instead of refused, so nothing but that state comes here.
   *
   * @internal
   */
  sealKnownJson(data: unknown, ctx: StateBinding, options: StateSealOptions): string {
    const { principal, ttl } = callOptionsOf("seal", options, this.defaultTtlFor(ctx));
    return this.sealFor(data, ctx, principal, ttl, true);
  }

  /**
   * `seal` for a lifetime longer than a round's (up to `lifetimeSeconds`, unchecked against the
   * 900 s cap): the framework's own tokens that outlive one request (a 2025 session id).
   *
   * @internal
   */
  sealLongLived(data: unknown, ctx: StateBinding, principal: string | null, lifetimeSeconds: number): string {
    return this.sealFor(data, ctx, principal, lifetimeSeconds);
  }

  /**
   * `open` for a token of `sealLongLived`; throws like `open`.
   *
   * @internal
   */
  openLongLived(token: unknown, ctx: StateBinding, principal: string | null, lifetimeSeconds: number): JsonValue {
    return this.openFor(token, ctx, principal, lifetimeSeconds, false);
  }

  /**
   * The lifetime of a seal or open that names no `ttl`: the sealer's, or the longer one a 2025
   * session's round gives its request (its state must outlast the session's wait for the answer).
   */
  private defaultTtlFor(ctx: StateBinding): number {
    const lifetime = typeof ctx === "object" && ctx !== null ? stateLifetimeOf(ctx) : undefined;
    return lifetime !== undefined && lifetime > this.defaultTtl ? lifetime : this.defaultTtl;
  }

  private sealFor(data: unknown, ctx: StateBinding, principal: string | null, ttl: number, knownJson = false): string {
    checkBinding("seal", ctx);
    const body = knownJson ? JSON.stringify(data) : strictJsonStringify(data);
    const key = this.ring.signing;
    const issued = this.nowSeconds();
    const digest = bindingDigestOf(ctx);
    const text = lastBindingText();
    const principalText = principalTextOf(principal);
    const expires = issued + ttl;
    const head = `[${VERSION},${issued},${expires},"",`;
    const overhead = PREFIX.length + key.id.length + 2 + MAC_CHARS; // rt3.<keyId>.<payload>.<mac>
    const sealed = sealPayload(key, digest, principalText, head, body, STATE_TOKEN_MAX_BYTES - overhead);
    if ("tooLarge" in sealed) throw new StateTooLargeError(overhead + base64urlLength(sealed.tooLarge), STATE_TOKEN_MAX_BYTES);
    const token = `${PREFIX}${key.id}.${sealed.payload}.${sealed.mac}`;
    this.recent.remember({ token, text, digest, principal: principalText, issued, expires, body });
    return token;
  }

  /**
   * Opens a token sealed by `seal` and returns its data, if it was sealed by a key of this ring
   * for the same method, salient params and principal, is not expired, and its lifetime is at
   * most `options.ttl` (default: as for `seal`). Otherwise throws `McpError(-32602,
   * "Invalid or expired request state")` and logs the precise reason.
   *
   * A TypeError or RangeError means the call itself is wrong (missing principal, bad ttl).
   *
   * @example const carried = sealer.open(ctx.requestState, ctx, { principal: ctx.principal });
   */
  open(token: unknown, ctx: StateBinding, options: StateSealOptions): JsonValue {
    const { principal, ttl } = callOptionsOf("open", options, this.defaultTtlFor(ctx));
    return this.openFor(token, ctx, principal, ttl, true);
  }

  /** `once`: the token is a round's (opened once, so forgotten by `recent` once opened), not a session id. */
  private openFor(token: unknown, ctx: StateBinding, principal: string | null, ttl: number, once: boolean): JsonValue {
    checkBinding("open", ctx);
    if (typeof token !== "string") throw this.reject("not-a-string", ctx);
    // A UTF-16 code unit is at most 3 UTF-8 bytes: count the bytes only when that could matter.
    if (
      token.length > STATE_TOKEN_MAX_BYTES ||
      (token.length * 3 > STATE_TOKEN_MAX_BYTES && Buffer.byteLength(token, "utf8") > STATE_TOKEN_MAX_BYTES)
    ) {
      throw this.reject("too-large", ctx, { limit: STATE_TOKEN_MAX_BYTES });
    }
    const recent = this.recent.peek(token);
    if (recent !== undefined && isSealedFor(recent, ctx, principalTextOf(principal))) {
      this.checkLifetime(recent.issued, recent.expires, ttl, ctx);
      // A round's token is opened once: forgotten now. Refused, it is kept, to tell why again.
      if (once) this.recent.forget(recent);
      return JSON.parse(recent.body) as JsonValue;
    }
    // rt<version>.<keyId>.<payload>.<mac>, split without a regex: the MAC covers every character
    // of the text, so only a refused token needs its alphabet checked (see `refuse`).
    const keyStart = token.indexOf(".") + 1;
    const keyEnd = keyStart > 3 ? token.indexOf(".", keyStart) : -1;
    const macStart = token.length - MAC_CHARS;
    if (keyEnd < 0 || macStart - 1 <= keyEnd || token.charCodeAt(macStart - 1) !== DOT || !token.startsWith("rt")) {
      throw this.reject("malformed", ctx);
    }
    const version = token.slice(2, keyStart - 1);
    if (version !== CURRENT && version !== RT2) throw this.refuse("unsupported-version", token, ctx);
    const key = this.ring.find(token.slice(keyStart, keyEnd));
    if (key === undefined) throw this.refuse("unknown-key", token, ctx);
    const mac = token.slice(macStart);
    const payload = token.slice(keyEnd + 1, macStart - 1);
    let fields: unknown[] | undefined;
    if (version === CURRENT) {
      // The one HMAC of an open, over the payload's bytes: authenticity and binding at once.
      const digest = bindingDigestOf(ctx);
      const principalText = principalTextOf(principal);
      const opened = openPayload(key, digest, principalText, payload, mac);
      if (opened === undefined) throw this.refuse("bad-mac", token, ctx);
      fields = parseFields(opened.json);
      // Why, when the token is one this sealer made (remembered, and so refused for its binding);
      // any other token whose MAC does not match is bad-mac, whatever part differed.
      if (!opened.authentic) throw this.refuse(recent === undefined ? "bad-mac" : mismatchOf(recent, ctx), token, ctx);
    } else {
      // rt2: its tags are not read (see rt2-token.ts), so any refusal is bad-mac.
      if (!sameMac(mac, rt2MacOf(key, token.slice(0, macStart - 1), bindingOf(ctx, principal)))) throw this.refuse("bad-mac", token, ctx);
      fields = decodeRt2Payload(payload);
    }

    // Authentic from here on: what follows is this sealer's own output (or a key holder's).
    if (fields === undefined || fields.length !== 5) throw this.reject("malformed", ctx);
    const [payloadVersion, issued, expires, tags, data] = fields;
    if (payloadVersion !== Number(version)) throw this.reject("version-mismatch", ctx);
    if (typeof issued !== "number" || typeof expires !== "number" || typeof tags !== "string") throw this.reject("malformed", ctx);
    if (!Number.isSafeInteger(issued) || !Number.isSafeInteger(expires)) {
      throw this.reject("malformed", ctx);
    }
    this.checkLifetime(issued, expires, ttl, ctx);
    return data as JsonValue;
  }

  /** Throws for a token not yet issued, expired, or living longer than `ttl` allows. */
  private checkLifetime(issued: number, expires: number, ttl: number, ctx: StateBinding): void {
    const now = this.nowSeconds();
    if (issued > now) throw this.reject("issued-in-future", ctx);
    if (now >= expires) throw this.reject("expired", ctx);
    if (expires - issued > ttl) throw this.reject("lifetime-exceeds-ttl", ctx);
  }

  /**
   * `reject` for a token that failed after the split: `malformed` if it is not even well-formed,
   * else the reason (computed only then, when it is a function).
   */
  private refuse(reason: StateRejectReason | (() => StateRejectReason), token: string, ctx: StateBinding): McpError {
    if (!TOKEN_SHAPE.test(token)) return this.reject("malformed", ctx);
    return this.reject(typeof reason === "function" ? reason() : reason, ctx);
  }

  private reject(reason: StateRejectReason, ctx: StateBinding, extra?: Record<string, unknown>): McpError {
    this.rejections.record(reason, { method: ctx.requestMethod, ...extra });
    return new McpError(ErrorCode.InvalidParams, INVALID_STATE_MESSAGE);
  }

  private nowSeconds(): number {
    const ms = this.now();
    // A NaN clock would make every expiry comparison false, so every token valid forever.
    if (typeof ms !== "number" || !Number.isFinite(ms)) {
      throw new Error("StateSealer: the clock option `now` returned something other than a finite number of milliseconds");
    }
    return Math.floor(ms / 1000);
  }
}

/** The last principal seen and its text: a round's open and seal, and a caller's next request, ask for the same one. */
let lastPrincipal: string | null = null;
let lastPrincipalText = "null";

/** A principal's canonical JSON (a string or null, checked by the caller: JSON.stringify is it). */
function principalTextOf(principal: string | null): string {
  if (principal !== lastPrincipal) {
    lastPrincipalText = JSON.stringify(principal);
    lastPrincipal = principal;
  }
  return lastPrincipalText;
}

function checkBinding(call: "seal" | "open", ctx: StateBinding): void {
  if (
    typeof ctx !== "object" ||
    ctx === null ||
    typeof ctx.requestMethod !== "string" ||
    typeof ctx.requestParams !== "object" ||
    ctx.requestParams === null ||
    Array.isArray(ctx.requestParams)
  ) {
    throw new TypeError(`StateSealer.${call}: ctx must be a StateBinding { requestMethod: string, requestParams: object }`);
  }
}
