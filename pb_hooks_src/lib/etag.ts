// Conditional GET (RFC 9110 8.8.3, 13.1.2): an entity tag of a response body and the If-None-Match test.
// The route computes the tag over the exact text it would serve, so equal tags mean equal answers.

/** A strong tag: the hex digest of the body, quoted. */
export function entityTag(hexDigest: string): string {
  return `"${hexDigest}"`;
}

/**
 * Whether an If-None-Match header names `tag` (weak comparison, as the RFC asks for this header): `*`,
 * or one of a comma-separated list, each possibly `W/`-prefixed. A blank or absent header never matches.
 */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, "");
  const wanted = opaque(tag);
  return header.split(",").some((entry) => {
    const candidate = entry.trim();
    return candidate === "*" || (candidate !== "" && opaque(candidate) === wanted);
  });
}
