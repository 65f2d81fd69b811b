/** The one test of "an absolute http(s) URL" used for links, photos and leaflets. */
const HTTP_URL = /^https?:\/\/[^\s/?#]+\S*$/i;

/** Absolute http(s) URL with a host and no whitespace; a regex, cheap enough for the hot loop. */
export function isHttpUrl(value: string): boolean {
  return HTTP_URL.test(value);
}

/** isHttpUrl, plus what the WHATWG URL parser accepts: for input files, read once per run. */
export function isValidHttpUrl(value: string): boolean {
  if (!isHttpUrl(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
