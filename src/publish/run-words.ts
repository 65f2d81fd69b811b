/**
 * The status page's words for what is online and what the last run did, in English, French and
 * Dutch (i18n.ts has the rest): gate reasons, run errors and problems are said in a shop manager's
 * words; the technical text (code, config key, path) stays one click away (page's <details>).
 */
import type { Language } from "../serve/status/i18n.js";
import { count, decimal } from "../core/numbers.js";

const en = {
  onlineNow: "What marketplaces get now",
  onlineCount: "{n} of {total} feeds online",
  noneOnline: "No feed is online: marketplaces get nothing.",
  onlineSince: "online since",
  held: "no longer in the config: kept online until someone retires it",
  notFetched: "not fetched yet",
  fetched: "fetched by",
  runTitle: "Last run",
  runOnline: "the feeds above stay online",
  whyNot: "Why nothing of this run was published",
  whySome: "Why some feeds were not published",
  attention: "What needs attention",
  whatToDo: "What to do",
  detail: "Technical detail",
  thisRun: "This run",
  leftOutByRun: "Left out by the last run",
  notPublishedShort: "not published",
  onlineFile: "Online now",
  catalogue: { full: "catalogue read in full", delta: "catalogue changes read", snapshot: "saved copy of the catalogue used", age: "data from {age}", fellBack: "read in full instead" },
  offersOnline: "Offers file of the feeds online",
  offersRun: "Offers file of the last run",
  offersRefusedRun: "refused: the feeds kept their previous prices and stock",
  gate: {
    drop: "{from} → {to} items (−{pct} %), a bigger drop than the {max} % allowed",
    rejected: "{pct} % of products rejected for bad data ({n}), more than the {max} % allowed",
    emptyColumns: "columns empty in every row: {cols}",
    move: "the file name would change from {from} to {to}, and the address the marketplace uses would stop working",
    failed: "the feed could not be written",
    runFailed: "the run stopped before this feed was written; the previous file stays online",
    prices: "prices moved more than {move} % for {pct} % of the items ({n} of {of}), more than the {max} % allowed",
    pinned: "pinned since {at} by {cmd}: the version put back stays online until it is released",
    other: "not published",
  },
  changes: { line: "since the previous version: +{added} −{removed}, {prices} price changes", more: "{availability} availability, {titles} title, {links} link, {images} photo changes", none: "no change since the previous version" },
  problem: { served: "no longer in the config; its last good file stays online until someone retires it", other: "something beside the feeds failed" },
  error: {
    SOURCE_HTTP: "the catalogue could not be read",
    SOURCE_AUTH: "the catalogue refused the credentials",
    SOURCE_NETWORK: "the catalogue could not be reached",
    SOURCE_TIMEOUT: "the catalogue took too long to answer",
    SOURCE_PARSE: "the catalogue sent something unreadable",
    RATE_LIMITED: "the catalogue refused too many requests",
    OFFERS_REFUSED: "the offers file was refused",
    INTERRUPTED: "the run was stopped before the end",
    CONFIG_INVALID: "the configuration has an error",
    RUN_DIED: "the last run died at {at} without finishing (stopped from outside, out of memory, or crashed)",
    other: "the run stopped on an error",
  } as Record<string, string>,
  chart: { caption: "Items in the last {n} runs: online now {now}, lowest {min}, highest {max}", captionOne: "Items of the last run: online now {now}", lastRun: "last run {last}, not published", notPublished: "not published", failed: "run failed", legend: "orange ring: not published · red cross: run failed", none: "No runs recorded yet." },
};
export type RunWords = typeof en;

const fr: RunWords = {
  onlineNow: "Ce que reçoivent les places de marché",
  onlineCount: "{n} flux sur {total} en ligne",
  noneOnline: "Aucun flux en ligne : les places de marché ne reçoivent rien.",
  onlineSince: "en ligne depuis",
  held: "n'est plus dans la configuration : reste en ligne jusqu'à ce qu'on le retire",
  notFetched: "pas encore récupéré",
  fetched: "récupéré par",
  runTitle: "Dernière exécution",
  runOnline: "les flux ci-dessus restent en ligne",
  whyNot: "Pourquoi rien de cette exécution n'a été publié",
  whySome: "Pourquoi des flux n'ont pas été publiés",
  attention: "Ce qui demande votre attention",
  whatToDo: "Que faire",
  detail: "Détail technique",
  thisRun: "Cette exécution",
  leftOutByRun: "Exclus par la dernière exécution",
  notPublishedShort: "non publié",
  onlineFile: "En ligne",
  catalogue: { full: "catalogue lu en entier", delta: "changements du catalogue lus", snapshot: "copie enregistrée du catalogue utilisée", age: "données d'{age}", fellBack: "lu en entier à la place" },
  offersOnline: "Fichier d'offres des flux en ligne",
  offersRun: "Fichier d'offres de la dernière exécution",
  offersRefusedRun: "refusé : les flux gardent leurs prix et stocks précédents",
  gate: {
    drop: "{from} → {to} articles (−{pct} %), une baisse plus forte que les {max} % admis",
    rejected: "{pct} % des produits rejetés pour données erronées ({n}), plus que les {max} % admis",
    emptyColumns: "colonnes vides dans toutes les lignes : {cols}",
    move: "le nom du fichier passerait de {from} à {to}, et l'adresse utilisée par la place de marché ne répondrait plus",
    failed: "le flux n'a pas pu être écrit",
    runFailed: "l'exécution s'est arrêtée avant d'écrire ce flux ; le fichier précédent reste en ligne",
    prices: "les prix ont bougé de plus de {move} % pour {pct} % des articles ({n} sur {of}), plus que les {max} % admis",
    pinned: "épinglé depuis {at} par {cmd} : la version remise en ligne y reste jusqu'à sa libération",
    other: "non publié",
  },
  changes: { line: "depuis la version précédente : +{added} −{removed}, {prices} changements de prix", more: "{availability} de disponibilité, {titles} de titre, {links} de lien, {images} de photo", none: "aucun changement depuis la version précédente" },
  problem: { served: "n'est plus dans la configuration ; son dernier bon fichier reste en ligne jusqu'à ce qu'on le retire", other: "un élément hors flux a échoué" },
  error: {
    SOURCE_HTTP: "le catalogue n'a pas pu être lu",
    SOURCE_AUTH: "le catalogue a refusé les identifiants",
    SOURCE_NETWORK: "le catalogue était injoignable",
    SOURCE_TIMEOUT: "le catalogue a mis trop de temps à répondre",
    SOURCE_PARSE: "le catalogue a envoyé des données illisibles",
    RATE_LIMITED: "le catalogue a refusé trop de demandes",
    OFFERS_REFUSED: "le fichier d'offres a été refusé",
    INTERRUPTED: "l'exécution a été arrêtée avant la fin",
    CONFIG_INVALID: "la configuration contient une erreur",
    RUN_DIED: "la dernière exécution s'est arrêtée net à {at} sans finir (arrêtée de l'extérieur, mémoire épuisée ou plantage)",
    other: "l'exécution s'est arrêtée sur une erreur",
  },
  chart: { caption: "Articles des {n} dernières exécutions : {now} en ligne, au plus bas {min}, au plus haut {max}", captionOne: "Articles de la dernière exécution : {now} en ligne", lastRun: "dernière exécution {last}, non publiée", notPublished: "non publié", failed: "exécution en échec", legend: "anneau orange : non publié · croix rouge : exécution en échec", none: "Aucune exécution enregistrée." },
};

const nl: RunWords = {
  onlineNow: "Wat marktplaatsen nu krijgen",
  onlineCount: "{n} van {total} feeds online",
  noneOnline: "Geen feed online: marktplaatsen krijgen niets.",
  onlineSince: "online sinds",
  held: "staat niet meer in de configuratie: blijft online tot iemand hem intrekt",
  notFetched: "nog niet opgehaald",
  fetched: "opgehaald door",
  runTitle: "Laatste run",
  runOnline: "de feeds hierboven blijven online",
  whyNot: "Waarom niets van deze run gepubliceerd is",
  whySome: "Waarom sommige feeds niet gepubliceerd zijn",
  attention: "Wat aandacht vraagt",
  whatToDo: "Wat te doen",
  detail: "Technische details",
  thisRun: "Deze run",
  leftOutByRun: "Uitgesloten door de laatste run",
  notPublishedShort: "niet gepubliceerd",
  onlineFile: "Nu online",
  catalogue: { full: "catalogus volledig gelezen", delta: "wijzigingen van de catalogus gelezen", snapshot: "opgeslagen kopie van de catalogus gebruikt", age: "gegevens van {age}", fellBack: "in plaats daarvan volledig gelezen" },
  offersOnline: "Aanbiedingenbestand van de online feeds",
  offersRun: "Aanbiedingenbestand van de laatste run",
  offersRefusedRun: "geweigerd: de feeds houden hun vorige prijzen en voorraad",
  gate: {
    drop: "{from} → {to} artikelen (−{pct} %), een grotere daling dan de toegestane {max} %",
    rejected: "{pct} % van de producten geweigerd wegens foute gegevens ({n}), meer dan de toegestane {max} %",
    emptyColumns: "kolommen leeg in elke regel: {cols}",
    move: "de bestandsnaam zou veranderen van {from} naar {to}, en het adres dat de marktplaats gebruikt zou niet meer werken",
    failed: "de feed kon niet geschreven worden",
    runFailed: "de run stopte voordat deze feed geschreven werd; het vorige bestand blijft online",
    prices: "prijzen veranderden meer dan {move} % voor {pct} % van de artikelen ({n} van {of}), meer dan de toegestane {max} %",
    pinned: "vastgezet sinds {at} door {cmd}: de teruggezette versie blijft online tot ze wordt vrijgegeven",
    other: "niet gepubliceerd",
  },
  changes: { line: "sinds de vorige versie: +{added} −{removed}, {prices} prijswijzigingen", more: "{availability} beschikbaarheids-, {titles} titel-, {links} link-, {images} fotowijzigingen", none: "geen wijziging sinds de vorige versie" },
  problem: { served: "staat niet meer in de configuratie; het laatste goede bestand blijft online tot iemand het intrekt", other: "iets naast de feeds is mislukt" },
  error: {
    SOURCE_HTTP: "de catalogus kon niet gelezen worden",
    SOURCE_AUTH: "de catalogus weigerde de inloggegevens",
    SOURCE_NETWORK: "de catalogus was niet bereikbaar",
    SOURCE_TIMEOUT: "de catalogus antwoordde te traag",
    SOURCE_PARSE: "de catalogus stuurde onleesbare gegevens",
    RATE_LIMITED: "de catalogus weigerde te veel verzoeken",
    OFFERS_REFUSED: "het aanbiedingenbestand is geweigerd",
    INTERRUPTED: "de run is voor het einde gestopt",
    CONFIG_INVALID: "de configuratie bevat een fout",
    RUN_DIED: "de laatste run is om {at} gestopt zonder af te ronden (van buitenaf gestopt, geheugen op, of gecrasht)",
    other: "de run is gestopt op een fout",
  },
  chart: { caption: "Artikelen in de laatste {n} runs: nu online {now}, laagste {min}, hoogste {max}", captionOne: "Artikelen van de laatste run: nu online {now}", lastRun: "laatste run {last}, niet gepubliceerd", notPublished: "niet gepubliceerd", failed: "run mislukt", legend: "oranje ring: niet gepubliceerd · rode kruis: run mislukt", none: "Nog geen runs opgeslagen." },
};

export const RUN_WORDS: Record<Language, RunWords> = { en, fr, nl };

/** `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, key: string) => (key in values ? String(values[key]) : m));
}

/** A channel's `published` text (gate or failure, channel-run.ts and gate.ts) in the page's words. */
export function unpublishedWords(reason: string, lang: Language): string {
  const g = RUN_WORDS[lang].gate;
  // The run's text writes numbers the English way: said again in the language's (37,0 %, 1 011).
  const d = (x: string) => decimal(Number(x), lang);
  const n = (x: string) => count(Number(x), lang);
  const max = (x: string) => (Number.isInteger(Number(x)) ? n(x) : d(x));
  let m = /items dropped ([\d.]+)% \((\d+) -> (\d+)\), more than maxDropPercent ([\d.]+)%/.exec(reason);
  if (m) return fill(g.drop, { pct: d(m[1]!), from: n(m[2]!), to: n(m[3]!), max: max(m[4]!) });
  m = /([\d.]+)% of products rejected for bad data \((\d+)\), more than maxRejectedPercent ([\d.]+)%/.exec(reason);
  if (m) return fill(g.rejected, { pct: d(m[1]!), n: n(m[2]!), max: max(m[3]!) });
  m = /columns? (.+) empty in every row/.exec(reason);
  if (m) return fill(g.emptyColumns, { cols: m[1]! });
  m = /prices moved more than ([\d.]+)% for ([\d.]+)% of items \((\d+) of (\d+)[;)].*more than maxPriceChangedItemsPercent ([\d.]+)%/.exec(reason);
  if (m) return fill(g.prices, { move: max(m[1]!), pct: d(m[2]!), n: n(m[3]!), of: n(m[4]!), max: max(m[5]!) });
  m = /pinned since (\S+) by `([^`]+)`/.exec(reason);
  if (m) return fill(g.pinned, { at: `${m[1]!.slice(0, 16).replace("T", " ")} UTC`, cmd: m[2]! });
  m = /the file would move from (\S+) to (\S+),/.exec(reason);
  if (m) return fill(g.move, { from: m[1]!, to: m[2]! });
  // failed-run.ts: the whole run failed, this channel wrote nothing.
  if (reason.startsWith("failed: the run failed")) return g.runFailed;
  if (reason.startsWith("failed")) return g.failed;
  return g.other;
}

export function errorWords(code: string, lang: Language, at?: string): string {
  const words = RUN_WORDS[lang].error;
  // {at}: when the run ended (a died run's last heartbeat), as the page and the alerts write times.
  return fill(words[code] ?? words["other"]!, { at: at === undefined ? "?" : `${at.slice(0, 16).replace("T", " ")} UTC` });
}

export function problemWords(kind: string, lang: Language): string {
  const words = RUN_WORDS[lang].problem;
  return kind === "served" ? words.served : words.other;
}
