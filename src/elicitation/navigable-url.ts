/**
 * Why `url` cannot be sent in a URL-mode elicitation, or undefined when it can. Accepted: an
 * absolute `http:` or `https:` URL (WHATWG URL parsing) with a host and without userinfo
 * (`user:pass@` would put credentials in front of the user and invites phishing look-alikes).
 * Whitespace and control characters are refused because the parser would silently drop them.
 *
 * @example navigableUrlProblem("https://example.com/connect") // undefined
 */
export function navigableUrlProblem(url: unknown): string | undefined {
  if (typeof url !== "string" || url.length === 0) return "the url must be a non-empty string";
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: a url must hold none
  if (/[\s\u0000-\u001f\u007f-\u009f]/u.test(url)) return "the url must not contain whitespace or control characters";
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return "the url must be absolute (http: or https:)";
  if (!/^https?:/i.test(url)) return "the url must use http: or https:";
  // Read the authority as written: the WHATWG parser forgives "https:host", "https:///host" and backslashes.
  if (!/^https?:\/\//i.test(url)) return "the url must have a host (scheme://host)";
  const authority = url.slice(url.indexOf("//") + 2).split(/[/?#\\]/)[0]!;
  if (authority.length === 0) return "the url must have a host";
  if (authority.includes("@")) return "the url must not carry userinfo (user:password@)";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the url is not a valid URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "the url must use http: or https:";
  if (parsed.hostname.length === 0) return "the url must have a host";
  if (parsed.username !== "" || parsed.password !== "") return "the url must not carry userinfo (user:password@)";
  return undefined;
}
