/** Host names of this machine: the only ones served over plain http (OAuth 2.1's loopback exception). */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * `value` as a URL, refused unless https (or http on a loopback host, or with `allowInsecure`,
 * the explicit development option): OAuth 2.1 sends tokens and keys over TLS only.
 */
export function secureUrl(value: string, what: string, allowInsecure = false): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (LOOPBACK.test(url.hostname) || allowInsecure)) return url;
  throw new TypeError(
    `${what} must use https (http only for localhost, 127.0.0.1 or [::1], or with allowInsecure: true in development), got ${JSON.stringify(value)}`,
  );
}
