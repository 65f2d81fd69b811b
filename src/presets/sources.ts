/**
 * Where every preset's fields and rules come from: the public document behind
 * each column or element a preset writes, and behind each rule it applies, so a
 * reviewer can check any value in one place. The README's "Preset fields and
 * their sources" section is rendered from this file (test/presets/sources.test.ts
 * keeps them equal and checks that every field a built-in layout writes is here).
 */

/** How firmly a name or rule is established. */
export type Evidence =
  /** The channel's own published document. */
  | "spec"
  /** A third-party guide that reproduces the channel's spec (Kelkoo publishes none openly). */
  | "guide"
  /** Open-source integrations of the channel; the channel's own page does not show it. */
  | "integration"
  /** pharmafeed's own format: no channel behind it. */
  | "own"
  /** Kept, but no public source confirms the name: the README says so. */
  | "unconfirmed";

export const DOCUMENTS = {
  G: { title: "Google Merchant Center, Product data specification", url: "https://support.google.com/merchants/answer/7052112" },
  GID: { title: "Google, identifier_exists", url: "https://support.google.com/merchants/answer/6324478" },
  GSD: { title: "Google, sale_price_effective_date", url: "https://support.google.com/merchants/answer/6324460" },
  GUP: { title: "Google, unit_pricing_measure", url: "https://support.google.com/merchants/answer/6324455" },
  GED: { title: "Google, Editorial and professional requirements (no emoji or gimmicky symbols)", url: "https://support.google.com/merchants/answer/6150244" },
  GUB: { title: "Google, unit_pricing_base_measure (allowed bases)", url: "https://support.google.com/merchants/answer/6324490" },
  GAV: { title: "Google, availability (in_stock, out_of_stock, preorder, backorder)", url: "https://support.google.com/merchants/answer/6324448" },
  GAD: { title: "Google, availability_date (required with preorder and backorder; YYYY-MM-DDThh:mm[±hhmm] or YYYY-MM-DDThh:mmZ)", url: "https://support.google.com/merchants/answer/6324470" },
  GLK: { title: "Google, link (ASCII characters only, RFC 3986 compliant)", url: "https://support.google.com/merchants/answer/6324416" },
  GIM: { title: "Google, image_link (ASCII, RFC 3986; symbols and spaces URL-encoded, a comma as %2C)", url: "https://support.google.com/merchants/answer/6324350" },
  GTSV: { title: "Google, Quoted attributes in tab-delimited data sources (on by default for new data sources; a quote inside is doubled)", url: "https://support.google.com/merchants/answer/14998273" },
  URI: { title: "RFC 3986, Uniform Resource Identifier (URI): Generic Syntax", url: "https://www.rfc-editor.org/rfc/rfc3986" },
  RSS: { title: "RSS 2.0 specification (RSS Advisory Board)", url: "https://www.rssboard.org/rss-specification" },
  MS: { title: "Microsoft Advertising, Product attributes (Merchant Center feed file)", url: "https://learn.microsoft.com/en-us/advertising/msa-help/hlp_ba_conc_aboutbingmerchantcentercatalogfile" },
  MSF: { title: "Microsoft Advertising, How is the feed file organized? (up to 10 GTINs; identifier_exists only without gtin + brand or mpn + brand; Google feed files imported)", url: "https://help.ads.microsoft.com/apex/index/3/en-us/51084" },
  META: { title: "Meta, Catalog reference (supported feed formats and fields)", url: "https://developers.facebook.com/docs/marketing-api/catalog/reference" },
  METAV: { title: "Meta, catalog feed template (availability: in stock, available for order, preorder, out of stock, discontinued)", url: "https://lookaside.facebook.com/developers/resources/?id=catalog_country_feed_template.csv" },
  METABP: { title: "Meta, Commerce catalog best practices (a description without HTML tags or character entities)", url: "https://developers.facebook.com/docs/commerce-platform/catalog/best-practices" },
  METAF: { title: "Meta, Commerce catalog fields (google_product_category for tax and Purchase Protection)", url: "https://developers.facebook.com/docs/commerce-platform/catalog/fields" },
  ID: { title: "idealo, CSV importer documentation", url: "https://idealo.github.io/csv-importer/en/csv" },
  IDX: { title: "Open-source idealo exports (WebToffee product feed for WooCommerce; jemel.lv idealo connector)", url: "https://jemel.lv/docs/idealo-connector/csv-export-alternative" },
  KE: { title: "ExportFeed, Kelkoo feed spec", url: "http://www.exportfeed.com/documentation/kelkoo-feed-spec/" },
  KD: { title: "Feed Donkey, Kelkoo product data feed build guide", url: "https://feed-donkey.io/articles/kelkoo-product-data-feed-build-guide" },
  KG: { title: "Kelkoo Group, Product data feed (XML sample)", url: "https://requestbuilder.kelkoogroup.com/kelkoo-customer-service/support-for-merchants/shopping-guides/product-data-feed/" },
  BL: { title: "beslist.nl shop integration wienkit/prestashop-beslistcart, classes/BeslistFeed.php", url: "https://github.com/wienkit/prestashop-beslistcart/blob/master/classes/BeslistFeed.php" },
  IDP: { title: "Open-source idealo.de export: RexTheme Product Feed Manager for WooCommerce, idealo.de template (pzns under medical information; basePrice)", url: "https://github.com/rimas-kudelis/wp-woocommerce-feed-manager/blob/0b640e9d36a6f27d3c8f14bab348d88efe8562d4/admin/feed-templates/class-rex-feed-template-idealo_de.php" },
  MFX: { title: "Open-source medizinfuchs export: RexTheme Product Feed Manager for WooCommerce, Medizinfuchs template (required: produktlink, preis, versandkosten, PZN)", url: "https://github.com/rimas-kudelis/wp-woocommerce-feed-manager/blob/2b1d7f07d426b56cfb1c8c9768ffbc154e4c099f/admin/feed-templates/class-rex-feed-template-medizinfuchs.php" },
  MFA: { title: "ApoCtrl, a reader of a pharmacy's published medizinfuchs CSV (its test data: `PZN;price` rows, price `7,49`)", url: "https://github.com/jase2507/ApoCtrl/blob/0f6a709d693baa9d79c8649cf71526a52dcb120d/scripts/test_phase4_2.php" },
  BLS: { title: "solute (billiger.de), Guideline feed optimization (REQUIRED columns per assortment; CSV, JSON or XML; column captions unique, order free)", url: "https://www.solutions.billiger.de/en/online-retailer/Integration/guideline_shop_integration.php" },
  BLP: { title: "plentymarkets, billiger.de export plugin, src/Generator/BilligerDE.php (tab-separated; aid ... dlv_cost, pzn; price 12.99)", url: "https://github.com/plentymarkets/plugin-elastic-export-billiger-de/blob/master/src/Generator/BilligerDE.php" },
  BLPG: { title: "plentymarkets, billiger.de export plugin, user guide (columns, old_price, images comma-separated)", url: "https://github.com/plentymarkets/plugin-elastic-export-billiger-de/blob/master/meta/documents/user_guide_en.md" },
  BLR: { title: "Open-source billiger.de export: RexTheme Product Feed Manager for WooCommerce, billiger template (required: name, aid, price, link, shop_cat, pzn, brand, mpn, GTIN)", url: "https://github.com/rimas-kudelis/wp-woocommerce-feed-manager/blob/d2b2e55fbde5300c59e32a082dad8e6511ad49a8/admin/feed-templates/class-rex-feed-template-billiger.php" },
  BLG: { title: "42feeds, The Merchant's Guide to billiger.de (aid;name;desc;shop_cat;link;image;price;old_price;brand;ean;mpn;dlv_time;dlv_cost)", url: "https://42feeds.com/guides/billiger-de-feed-optimization" },
  IFA: { title: "IFA, information on the PZN (8 digits, check digit mod 11 over weights 1..7)", url: "https://www.ifaffm.de/en/ifa-suppliers/ifa-information-on-pzn.html" },
  IFAQ: { title: "IFA, FAQ (the PZN is an 8-digit number: leading zeros belong to it)", url: "https://www.ifaffm.de/de/faq/id/5" },
  PANGV: { title: "Preisangabenverordnung (PAngV 2022), § 4 Grundpreis, § 5 units 1 kg / 1 l", url: "https://www.gesetze-im-internet.de/pangv_2022/" },
  PANGVG: { title: "Ferner Alsdorf, Grundpreisangabe (§ 4 (1) and § 5 (1) PAngV quoted)", url: "https://www.ferner-alsdorf.de/grundpreisangabe-bei-loser-ware/" },
  PF: { title: "pharmafeed's own item (src/mapping/feed-item.ts)", url: "" },
} as const;
export type DocumentKey = keyof typeof DOCUMENTS;

export interface FieldSource {
  /** The column or element name as written (XML: the element; `imagelink_N` for numbered ones). */
  field: string;
  /** What pharmafeed writes there. */
  value: string;
  docs: DocumentKey[];
  evidence: Evidence;
}

const f = (field: string, value: string, docs: DocumentKey[], evidence: Evidence = "spec"): FieldSource => ({ field, value, docs, evidence });

/** Google's fields, with the extra document a field's rule comes from. */
function googleFields(prefix: "g:" | "", docs: DocumentKey[]): FieldSource[] {
  const g = (name: string, value: string, extra: DocumentKey[] = []) => f(prefix + name, value, [...docs, ...extra]);
  const xml = prefix === "g:";
  return [
    g("id", "id"),
    ...(xml
      ? [f("title", "title (RSS's own element)", ["RSS", ...docs]), f("link", "link", ["RSS", ...docs]), f("description", "description", ["RSS", ...docs]), f("guid", "id, isPermaLink=\"false\"", ["RSS"])]
      : [g("title", "title"), g("description", "description"), g("link", "link")]),
    g("image_link", "imageLink"),
    g("additional_image_link", "additionalImageLinks"),
    g("availability", "availability: in_stock, out_of_stock, preorder, backorder", ["GAV"]),
    g("availability_date", "with preorder / backorder: the offers file's availability_date, `2026-12-15T00:00Z`", ["GAD"]),
    g("price", "price (regular), `12.99 EUR`"),
    g("sale_price", "salePrice while the sale runs"),
    g("sale_price_effective_date", "start/end, only when the sale has both", ["GSD"]),
    g("condition", "new"),
    g("brand", "brand"),
    g("gtin", "gtin"),
    g("mpn", "mpn (supplierReference)"),
    g("identifier_exists", xml ? "`no` per Google's rule, else absent" : "yes / no per Google's rule", ["GID"]),
    g("google_product_category", "googleProductCategory (the channel's map)"),
    g("product_type", "productType (category path)"),
    g("shipping_weight", "weight"),
    g("unit_pricing_measure", "unitPricingMeasure (the package content as sold)", ["GUP"]),
    g("unit_pricing_base_measure", "unitPricingBaseMeasure (unitPricing.volumeBase / massBase, default 1 l / 1 kg)", ["GUB"]),
  ];
}

const RSS_CHANNEL: FieldSource[] = [f("channel/title, link, description", "feed title, link, description", ["RSS"]), f("channel/language", "the channel's locale", ["RSS"])];

const META_CSV: FieldSource[] = [
  f("id", "id", ["META"]),
  f("title", "title", ["META"]),
  f("description", "description", ["META"]),
  f("availability", "`in stock`, `out of stock`, `preorder`, `available for order` (backorder)", ["META", "METAV"]),
  f("condition", "new", ["META"]),
  f("price", "price (regular), `12.99 EUR`", ["META"]),
  f("sale_price", "salePrice while the sale runs", ["META"]),
  f("sale_price_effective_date", "start/end, only when the sale has both", ["META", "GSD"]),
  f("link", "link", ["META"]),
  f("image_link", "imageLink", ["META"]),
  f("additional_image_link", "additionalImageLinks, comma-separated (a comma inside a URL is %2C)", ["META"]),
  f("brand", "brand", ["META"]),
  f("gtin", "gtin", ["META"]),
  f("mpn", "mpn", ["META"]),
  f("google_product_category", "googleProductCategory (the channel's map)", ["META", "METAF"]),
  f("product_type", "productType", ["META"]),
  f("quantity_to_sell_on_facebook", "stock quantity from the offers file", ["META"]),
];

const META_XML: FieldSource[] = [
  // Meta documents neither identifier_exists, nor availability_date, nor a base measure for feed files.
  ...googleFields("g:", ["META"]).filter((s) => !["g:identifier_exists", "g:unit_pricing_base_measure", "g:availability_date"].includes(s.field)),
  ...RSS_CHANNEL,
].map((s) =>
  s.field === "g:unit_pricing_measure"
    ? { ...s, docs: ["GUP"], evidence: "unconfirmed" as const }
    : s.field === "g:availability"
      ? { ...s, value: "`in stock`, `out of stock`, `preorder`, `available for order` (backorder)", docs: ["META", "METAV"] }
      : s,
);

const IDEALO: FieldSource[] = [
  f("sku", "id", ["ID"]),
  f("brand", "brand", ["ID"]),
  f("title", "title", ["ID"]),
  f("categoryPath", "productType", ["ID"]),
  f("url", "link", ["ID"]),
  f("eans", "every valid GTIN, pipe-separated", ["ID"]),
  f("description", "description", ["ID"]),
  f("price", "the price paid (sale while it runs)", ["ID"]),
  f("formerPrice", "the regular price while a sale runs", ["IDX"], "integration"),
  f("deliveryCosts_dhl", "custom.deliveryCosts (carrier suffix: dhl, dpd, gls, hermes, ups, ...)", ["ID"]),
  f("paymentCosts_credit_card", "custom.paymentCosts", ["IDX"], "integration"),
  f("deliveryTime", "custom.deliveryTime", ["ID"]),
  f("imageUrl", "imageLink and additionalImageLinks, `;`-separated (a `;` inside a URL is %3B)", ["ID"]),
  f("basePrice", "unit price of the price paid, `200.00 EUR / 1 l`", [], "unconfirmed"),
];

const KELKOO: FieldSource[] = [
  f("offer-id", "id", ["KD"], "guide"),
  f("title", "title (<= 80)", ["KE", "KD", "KG"], "guide"),
  f("description", "description (<= 300, plain text)", ["KE", "KG"], "guide"),
  f("product-url", "link", ["KE", "KD", "KG"], "guide"),
  f("landing-page-url", "link without tracking parameters", ["KD"], "guide"),
  f("price", "the price paid (sale while it runs; no strike-price field)", ["KE", "KG"], "guide"),
  f("merchant-category", "productType, else categories.defaultPath, else left out", ["KE", "KG"], "guide"),
  f("image-url", "imageLink", ["KE", "KG"], "guide"),
  f("ean", "gtin", ["KE", "KG"], "guide"),
  f("brand", "brand", ["KE", "KG"], "guide"),
  f("availability", "1 in stock, 2 stock on order (backorder), 4 preorder, 6 out of stock", ["KE"], "guide"),
  f("delivery-cost", "custom.deliveryCosts", ["KE", "KG"], "guide"),
  f("unit-price", "unit price of the price paid, `200.00 EUR / 1 l` (value format not documented publicly)", ["KG"], "guide"),
];

const BESLIST: FieldSource[] = [
  f("code", "id", ["BL"], "integration"),
  f("title", "title", ["BL"], "integration"),
  f("description", "description", ["BL"], "integration"),
  f("price", "the price paid, `12,99`", ["BL"], "integration"),
  f("price_old", "the regular price while a sale runs", ["BL"], "integration"),
  f("productlink", "link", ["BL"], "integration"),
  f("imagelink", "imageLink", ["BL"], "integration"),
  f("imagelink_N", "additionalImageLinks, numbered from 1", ["BL"], "integration"),
  f("eancode", "gtin (13 digits, required)", ["BL"], "integration"),
  f("brand", "brand", ["BL"], "integration"),
  f("shop_category", "productType", ["BL"], "integration"),
  f("google_product_category", "googleProductCategory", [], "unconfirmed"),
  f("condition", "Nieuw", ["BL"], "integration"),
  f("availability", "availability", [], "unconfirmed"),
  f("deliveryperiod_nl", "custom.deliveryTime", ["BL"], "integration"),
  f("deliveryperiod_be", "custom.deliveryTimeBe, else custom.deliveryTime", ["BL"], "integration"),
  f("shippingcost_nl", "custom.deliveryCosts", ["BL"], "integration"),
  f("shippingcost_be", "custom.deliveryCostsBe, else custom.deliveryCosts", ["BL"], "integration"),
];

const BASE_PRICE_DE = "unit price of the price paid per 1 l / 1 kg (PAngV)";

const MEDIZINFUCHS: FieldSource[] = [
  f("PZN", "codes.pzn: 8 digits, check digit verified (required)", ["MFX", "IFA", "IFAQ"], "integration"),
  f("preis", "the price paid (sale while it runs), `12,99`", ["MFX", "MFA"], "integration"),
  f("versandkosten", "custom.deliveryCosts", ["MFX"], "integration"),
  f("produktlink", "link", ["MFX"], "integration"),
  f("grundpreis", `${BASE_PRICE_DE}, \`20,00 EUR / 1 l\``, ["PANGV"], "unconfirmed"),
  f("id", "id (the shop's own key; no medizinfuchs source names it)", [], "unconfirmed"),
];

const BILLIGER: FieldSource[] = [
  f("aid", "id", ["BLP", "BLR", "BLG"], "integration"),
  f("name", "title", ["BLP", "BLR", "BLG"], "integration"),
  f("brand", "brand", ["BLP", "BLR", "BLG"], "integration"),
  f("mpnr", "mpn (RexTheme and 42feeds name it `mpn`)", ["BLP"], "integration"),
  f("ean", "gtin (RexTheme names it `GTIN`)", ["BLP", "BLG"], "integration"),
  f("pzn", "codes.pzn: 8 digits, check digit verified", ["BLP", "BLR", "IFA"], "integration"),
  f("desc", "description", ["BLP", "BLR", "BLG"], "integration"),
  f("shop_cat", "productType", ["BLP", "BLR", "BLG"], "integration"),
  f("price", "the price paid (sale while it runs), `12.99`", ["BLP", "BLR", "BLG"], "integration"),
  f("old_price", "the regular price while a sale runs", ["BLPG", "BLR", "BLG"], "integration"),
  f("ppu", `${BASE_PRICE_DE}, \`20.00 EUR / 1 l\` (value format not documented publicly)`, ["BLP", "BLPG", "PANGV"], "integration"),
  f("link", "link", ["BLP", "BLR", "BLG"], "integration"),
  f("image", "imageLink", ["BLP", "BLR", "BLG"], "integration"),
  f("images", "additionalImageLinks, comma-separated (a comma inside a URL is %2C)", ["BLPG"], "integration"),
  f("dlv_time", "custom.deliveryTime", ["BLP", "BLR", "BLG"], "integration"),
  f("dlv_cost", "custom.deliveryCosts", ["BLP", "BLR", "BLG"], "integration"),
];

/** idealo's columns as the `idealo` preset writes them, plus `pzns` and the payment column of idealo's own example feed. */
const IDEALO_DE: FieldSource[] = IDEALO.flatMap((s) =>
  s.field === "eans"
    ? [s, f("pzns", "codes.pzn: one PZN, 8 digits, check digit verified", ["IDP", "IFA"], "integration")]
    : s.field === "paymentCosts_credit_card"
      ? [f("paymentCosts_paypal", "custom.paymentCosts", ["ID"])]
      : s.field === "basePrice"
        ? [f("basePrice", `${BASE_PRICE_DE}, \`20.00 EUR / 1 l\``, ["IDP", "IDX", "PANGV"], "integration")]
        : [s],
);

const GENERIC: FieldSource[] = [
  "id", "title", "description", "link", "image_link", "additional_image_links", "price", "currency", "sale_price", "availability",
  "stock_quantity", "brand", "gtin", "gtins", "mpn", "cip13", "category_path", "google_product_category", "category_type",
  "prescription", "weight", "package_content", "leaflet_url", "locale", "unit_pricing_measure", "unit_pricing_base_measure", "unit_price",
].map((name) => f(name, "the FeedItem field of that name", ["PF"], "own"));

const WHOLE_ITEM: FieldSource[] = [f("(every FeedItem field)", "the whole item, less fallbacks", ["PF"], "own")];

/** Every preset's fields, in the order its layout writes them. */
export const PRESET_FIELDS: Record<string, FieldSource[]> = {
  google: [...googleFields("g:", ["G"]), ...RSS_CHANNEL],
  "google-tsv": googleFields("", ["G"]),
  microsoft: [...googleFields("g:", ["MS", "G"]), ...RSS_CHANNEL],
  meta: META_CSV,
  "meta-xml": META_XML,
  idealo: IDEALO,
  kelkoo: KELKOO,
  beslist: BESLIST,
  medizinfuchs: MEDIZINFUCHS,
  billiger: BILLIGER,
  "idealo-de": IDEALO_DE,
  "generic-csv": GENERIC,
  "generic-json": WHOLE_ITEM,
  "generic-ndjson": WHOLE_ITEM,
};

export interface RuleSource {
  presets: string;
  rule: string;
  docs: DocumentKey[];
}

/** The rules presets apply, each with its source (limits: src/presets/limits.ts). */
export const PRESET_RULES: RuleSource[] = [
  { presets: "google, google-tsv", rule: "id <= 50, title <= 150, description <= 5000, 10 additional images, brand required", docs: ["G"] },
  { presets: "microsoft", rule: "id <= 50, title <= 150, description <= 10000", docs: ["MS"] },
  { presets: "meta, meta-xml", rule: "title <= 200, description <= 9999, availability with a space, one of brand / mpn / gtin", docs: ["META"] },
  { presets: "google, google-tsv, microsoft", rule: "identifier_exists `no` only without a valid GTIN and without both brand and mpn; such products are published", docs: ["GID"] },
  { presets: "google, google-tsv, microsoft, meta, meta-xml", rule: "sale_price while the sale runs; sale_price_effective_date only as a complete interval start/end", docs: ["GSD", "META"] },
  { presets: "idealo, beslist", rule: "price is the price paid; the regular price goes to the strike-price field (formerPrice, price_old) during a sale", docs: ["IDX", "BL"] },
  { presets: "kelkoo", rule: "price is the price the customer pays (no strike-price field)", docs: ["KE"] },
  { presets: "kelkoo", rule: "availability codes 1 in stock, 2 stock on order, 3 unknown, 4 preorder, 5 available on order, 6 out of stock", docs: ["KE"] },
  { presets: "kelkoo", rule: "merchant-category mandatory; description <= 300 without HTML; title <= 80; landing-page-url without tracking", docs: ["KE", "KD"] },
  { presets: "idealo", rule: "description <= 1000; cost columns named per carrier and payment method", docs: ["ID"] },
  { presets: "beslist", rule: "a 13-digit EAN on every product", docs: ["BL"] },
  { presets: "google, microsoft, meta-xml", rule: "items carry RSS's title, link, description and a guid; the channel its language", docs: ["RSS", "G"] },
  { presets: "meta, meta-xml", rule: "google_product_category filled (tax, Purchase Protection)", docs: ["METAF"] },
  { presets: "google, google-tsv, microsoft", rule: "titles without emoji or decorative symbols", docs: ["GED"] },
  { presets: "google, google-tsv, microsoft", rule: "availability_date (ISO 8601, `YYYY-MM-DDThh:mmZ`) with preorder and backorder, from the offers file; without one the item is left out (MISSING_AVAILABILITY_DATE), never published to be disapproved", docs: ["GAV", "GAD"] },
  { presets: "microsoft", rule: "availability_date and URL encoding: no Microsoft Advertising page states them; Microsoft imports Google-format files, so Google's rules apply", docs: ["MSF", "GAD", "GLK"] },
  { presets: "microsoft", rule: "identifiers: up to 10 GTINs; identifier_exists only where neither gtin + brand nor mpn + brand exists (as Google's rule)", docs: ["MSF"] },
  { presets: "meta, meta-xml", rule: "availability one of in stock, out of stock, preorder, available for order, discontinued: backorder is written `available for order`", docs: ["META", "METAV"] },
  { presets: "every preset", rule: "every URL (link, image links, leaflet, the feed's link) ASCII and RFC 3986: non-ASCII, spaces and other disallowed characters percent-encoded as UTF-8, a comma as %2C, an international host in punycode; what is already percent-encoded is kept (never encoded twice)", docs: ["GLK", "GIM", "URI"] },
  { presets: "google-tsv, meta, idealo, generic-csv", rule: "list fields of URLs (additional_image_link, imageUrl, additional_image_links) encode their separator inside a URL, so no URL can split", docs: ["GIM", "ID"] },
  { presets: "every preset", rule: "titles, descriptions, brands and category names are plain text: HTML entities decoded until none is left (`&amp;amp;` is `&`)", docs: ["G", "METABP"] },
  { presets: "google-tsv", rule: "no value carries a tab, a line break or `\"` (a `\"` becomes `“` / `”`): the file reads the same with quoted fields on (the default for new data sources) and off", docs: ["GTSV"] },
  { presets: "google, google-tsv, microsoft", rule: "unit_pricing_measure with unit_pricing_base_measure, bases 1, 10, 100, 2, 4, 8 of a unit, 75cl, 750ml, 50kg, 1000kg", docs: ["GUP", "GUB"] },
  { presets: "medizinfuchs", rule: "a product without a checked PZN is left out (MISSING_CODE, detail pzn): medizinfuchs lists offers by PZN", docs: ["MFX"] },
  { presets: "medizinfuchs", rule: "`;`-separated, price `12,99` without currency: the shape of the one published medizinfuchs file found; medizinfuchs publishes no format (unconfirmed)", docs: ["MFA"] },
  { presets: "medizinfuchs, billiger, idealo-de", rule: "a PZN is 8 digits with its leading zeros, check digit verified (a 7-digit PZN padded); never invented or taken from a GTIN", docs: ["IFA", "IFAQ"] },
  { presets: "medizinfuchs, billiger, idealo-de", rule: "German by default (locale de, country DE); the base price per 1 l or 1 kg, the units PAngV 2022 allows for packaged goods", docs: ["PANGV", "PANGVG"] },
  { presets: "billiger", rule: "tab-separated, price `12.99`; captions are mapped when the feed is set up (any order, each unique)", docs: ["BLS", "BLP"] },
  { presets: "billiger", rule: "ean, pzn and brand + mpnr identify an offer: none is required alone (whether billiger.de takes a pzn without an ean is unconfirmed)", docs: ["BLR", "BLS"] },
  { presets: "billiger, idealo-de", rule: "price is the price paid; the regular price goes to old_price / formerPrice during a sale", docs: ["BLPG", "IDX"] },
  { presets: "idealo-de", rule: "idealo's columns, price `12.99` as idealo's example feed; pzns holds the one PZN (a separator for several is not documented publicly)", docs: ["ID", "IDP"] },
  { presets: "billiger, medizinfuchs", rule: "title and description lengths, image count and size: no public document states them (comparators' common values, limits.ts)", docs: [] },
];

const docLinks = (docs: readonly DocumentKey[]): string => docs.map((d) => `[${d}]`).join(" ");

/** The README's tables: fields per preset, rules, then the documents (rendered, kept equal by a test). */
export function sourcesMarkdown(): string {
  const lines: string[] = ["| Preset | Field | Written from | Source | Evidence |", "|---|---|---|---|---|"];
  for (const [preset, fields] of Object.entries(PRESET_FIELDS)) {
    for (const s of fields) lines.push(`| \`${preset}\` | \`${s.field}\` | ${s.value} | ${docLinks(s.docs) || "none"} | ${s.evidence} |`);
  }
  lines.push("", "| Presets | Rule | Source |", "|---|---|---|");
  for (const r of PRESET_RULES) lines.push(`| ${r.presets} | ${r.rule} | ${docLinks(r.docs) || "none"} |`);
  lines.push("");
  for (const [key, doc] of Object.entries(DOCUMENTS)) lines.push(doc.url === "" ? `- [${key}] ${doc.title}` : `- [${key}] ${doc.title}: <${doc.url}>`);
  return lines.join("\n") + "\n";
}
