/*
 * Skill URIs: `skill://<skill-path>/<file-path>`, each segment percent-encoded the way WHATWG URL
 * serialises a path (so the URI is already in the form `new URL(uri).href` gives), the first
 * segment, which sits in the authority, encoded strictly. Lookups go by that canonical form, so a
 * request may spell a URI any way that parses to the same one.
 */

// Characters a path segment keeps as they are; everything else is percent-encoded (UTF-8).
const ENCODED_IN_PATH = /[^\w!$&'()*+,.:;=@~-]/gu;

function encodePathSegment(segment: string): string {
  return segment.replace(ENCODED_IN_PATH, (char) => encodeURIComponent(char));
}

/** The URI of `segments` under `skill://`; undefined when a name has no URI form that round-trips (a lone surrogate, `.` or `..`). */
export function skillUri(segments: readonly string[]): string | undefined {
  const [authority, ...rest] = segments;
  if (authority === undefined) return undefined;
  let uri: string;
  try {
    uri = ["skill://" + encodeURIComponent(authority), ...rest.map(encodePathSegment)].join("/");
  } catch {
    return undefined;
  }
  return canonicalUri(uri) === uri ? uri : undefined;
}

/** The WHATWG-serialised form of `uri` (a fragment dropped), or undefined when it does not parse. */
export function canonicalUri(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}
