/**
 * The service wants image requests to carry a User-Agent naming the client
 * ("AppName/Version (contact)") and may refuse generic ones. The sandbox
 * refuses a missing or empty one and the generic values the docs name
 * ("-", "Mozilla/5.0", "curl/...") so a client finds out here, not in production.
 */
export function refusedUserAgent(value: string | undefined): string | undefined {
  const ua = (value ?? "").trim();
  if (ua === "" || ua === "-") return "Media endpoints require a User-Agent header such as \"MyShopFeed/1.2 (contact@example.com)\".";
  if (/^curl\//i.test(ua) || ua === "Mozilla/5.0") return `The User-Agent ${JSON.stringify(ua)} is generic; name your application, e.g. "MyShopFeed/1.2 (contact@example.com)".`;
  return undefined;
}
