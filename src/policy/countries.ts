/**
 * ISO 3166-1 alpha-2: the 249 officially assigned country codes. A feed's country and a policy
 * row's country are checked against them, so that `UK` (not ISO: `GB`) or `XX` is refused when
 * the config loads instead of silently matching no row (docs/policy.md). A list of our own, not
 * the runtime's ICU data: ICU also knows aliases (UK, DD), regions (EU, UN) and user codes (XK),
 * and its data differs between Node builds.
 */
const CODES = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW
`;

export const COUNTRIES: ReadonlySet<string> = new Set(CODES.split(/\s+/).filter(Boolean));

/** Codes people write for a country whose ISO code is another. */
const INSTEAD: Readonly<Record<string, string>> = { UK: "GB", EL: "GR" };

/** Undefined for an ISO 3166-1 alpha-2 code; otherwise what was expected (the loader adds what it got). */
export function countryProblem(code: string): string | undefined {
  if (COUNTRIES.has(code)) return undefined;
  const instead = INSTEAD[code];
  return instead === undefined ? "an ISO 3166 country code (FR, BE, NL, DE, AT, ...)" : `an ISO 3166 country code (write ${instead}, not ${code})`;
}
