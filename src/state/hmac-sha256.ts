import { createHash, createHmac, hash } from "node:crypto";

/** SHA-256's block size in bytes: the length of the padded key (RFC 2104's B). */
const BLOCK = 64;
/** SHA-256's digest size in bytes. */
const DIGEST = 32;
/** Longest message written into the shared scratch buffer; longer ones take createHmac. */
const SCRATCH_BYTES = 64 * 1024;

/** Where a message starts in a buffer given to `macOfBuffer`: the bytes before it are the pad's. */
export const MESSAGE_START = BLOCK;

/**
 * A buffer to write a message into at `MESSAGE_START`, for `macOfBuffer`: the shared scratch
 * when `bytes` fit in it (seal and open are synchronous, so one buffer serves every key), else a
 * new one.
 */
export function messageBuffer(bytes: number): Buffer {
  return bytes <= SCRATCH_BYTES ? scratch : Buffer.allocUnsafe(BLOCK + bytes);
}

/**
 * Message bytes being hashed, after the 64-byte padded key. `mac` is synchronous, so one buffer
 * serves every key, and a MAC costs no Buffer of its own.
 */
const scratch = Buffer.allocUnsafe(BLOCK + SCRATCH_BYTES);
/** The key whose inner pad is in the first BLOCK bytes of `scratch`, which only `macOfBuffer` writes. */
let padIn: HmacSha256 | undefined;

/**
 * HMAC-SHA256 (RFC 2104) under one key, for the sealer's one MAC per seal and per open.
 *
 * `HMAC(K, m) = SHA-256((K ^ opad) || SHA-256((K ^ ipad) || m))`, computed with two calls of
 * Node's one-shot `crypto.hash` over pads made once at construction, instead of a `createHmac`
 * object per MAC: on Node 20 (OpenSSL 3) each Hmac object looks its digest up and initialises a
 * native context. The inner digest is asked for as a latin1 ("binary") string and written into the outer
 * block: a one-shot hash that returns a Buffer costs about 0.7 µs more than one that returns a
 * string. The digest is byte-identical to `createHmac("sha256", key)` (a property test compares
 * them); a message too long for the scratch buffer, or a Node without `crypto.hash` (before
 * 20.12), takes `createHmac`.
 */
export class HmacSha256 {
  /** K ^ ipad. */
  private readonly innerPad: Buffer;
  /** K ^ opad, followed by room for the inner digest. */
  private readonly outer: Buffer;

  constructor(private readonly key: Buffer) {
    // Keys longer than a block are hashed first (RFC 2104); shorter ones are padded with zeros.
    const padded = Buffer.alloc(BLOCK);
    (key.length > BLOCK ? createHash("sha256").update(key).digest() : key).copy(padded);
    this.innerPad = Buffer.alloc(BLOCK);
    this.outer = Buffer.alloc(BLOCK + DIGEST);
    for (const [i, byte] of padded.entries()) {
      this.innerPad[i] = byte ^ 0x36;
      this.outer[i] = byte ^ 0x5c;
    }
  }

  /** base64url HMAC-SHA256 of the UTF-8 bytes of `text`. */
  mac(text: string): string {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: count only when the bound does not fit.
    if (typeof hash !== "function" || (text.length * 3 > SCRATCH_BYTES && Buffer.byteLength(text, "utf8") > SCRATCH_BYTES)) {
      return createHmac("sha256", this.key).update(text, "utf8").digest("base64url");
    }
    return this.macOfBuffer(scratch, scratch.write(text, BLOCK, "utf8"));
  }

  /**
   * base64url HMAC-SHA256 of the `length` bytes of `buffer` from `MESSAGE_START` (a buffer from
   * `messageBuffer`). Its first `MESSAGE_START` bytes are overwritten; the message is not.
   */
  macOfBuffer(buffer: Buffer, length: number): string {
    if (typeof hash !== "function") {
      return createHmac("sha256", this.key)
        .update(buffer.subarray(BLOCK, BLOCK + length))
        .digest("base64url");
    }
    // The shared scratch keeps the pad of the last key that used it: copied only when it changed.
    if (buffer !== scratch || padIn !== this) {
      this.innerPad.copy(buffer, 0);
      padIn = buffer === scratch ? this : undefined;
    }
    this.outer.write(hash("sha256", buffer.subarray(0, BLOCK + length), "binary"), BLOCK, "latin1");
    return hash("sha256", this.outer, "base64url") as string;
  }
}
