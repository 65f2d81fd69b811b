/**
 * What an alert says, in the language of `notify.language` (English by default): its title, the
 * sentence of what happened, what to do next and the labels of its text. The reasons per channel
 * come in the same words as the status page's (serve/status/run-words.ts).
 */
import type { AlertEvent } from "./settings.js";

export const ALERT_LANGUAGES = ["en", "fr", "nl"] as const;
export type AlertLanguage = (typeof ALERT_LANGUAGES)[number];

interface AlertWords {
  title: Record<AlertEvent, string>;
  next: Record<AlertEvent, string>;
  /** With {n}: how many feeds were not updated. */
  notUpdated: string;
  degraded: string;
  notRun: string;
  channels: string;
  whatToDo: string;
  statusPage: string;
  /** With {host}, {at}, {exit}. */
  footer: string;
  exitCode: string;
  /** feeds-stale: with {age} (hours, in the language's digits) and {max}; {at}: a publish time. */
  staleWhat: string;
  staleNone: string;
  onlineSince: string;
  nothingOnline: string;
  /** offers-refused: `--force` advised ({cmd}) only for a clean file that trips maxDropPercent; otherwise why not. */
  forceYes: string;
  forceNo: string;
  /** run-degraded: per held feed ({channel}, {cmd}; {near}: nearName or ""). */
  retire: string;
  nearName: string;
  /** run-failed: what to look at, by error code (`other` for the rest); {validate}: the validate command. */
  hint: Record<string, string>;
}

const en: AlertWords = {
  title: {
    "gate-tripped": "publish gate tripped: feeds not updated",
    "channel-failed": "a channel failed: feed not updated",
    "offers-refused": "offers file refused: nothing published",
    "run-degraded": "feeds published, but something else failed",
    "run-failed": "the feed run failed: nothing published",
    "feeds-stale": "feeds are stale",
    "merchant-disapprovals": "Google disapproved many more products",
    "merchant-account-issue": "Google reports a Merchant Center account issue",
    "run-recovered": "feeds published again: all clear",
  },
  next: {
    "gate-tripped":
      "The previous files stay online. Look at {reports} and the catalogue for why the feed shrank or why so many products were rejected; " +
      "if the new feed is right, publish it with `{cmd}`.",
    "channel-failed":
      "The other channels were published; the failed ones keep their previous file. Read the error in the run's log (a template, a full disk), " +
      "fix it, then run `{cmd}`.",
    "offers-refused":
      "Nothing was published; the previous feeds stay online with their old prices and stock. Fix the offers file at the lines named above and in " +
      "reports/_offers.csv (header, key column, format), then run `{cmd}` again.{force}",
    "run-degraded":
      "The feeds were published. Read what failed above (kept state, a destination, a served feed the config no longer names) and the run's log.{retire}",
    "run-failed":
      "Nothing of this run was published; the previous feeds stay online. Read the error above and the run's log: {hint} " +
      "The next scheduled run tries again, or run `{cmd}` by hand.",
    "merchant-disapprovals":
      "Google disapproved many more products since the last read-back. `pharmafeed explain <id>` shows Google's issue per product, " +
      "reports/google-issues.csv lists them all with Google's help links; fix the data (or the feed's mapping), Google re-checks at its next fetch.",
    "merchant-account-issue":
      "Google reports an issue with the whole Merchant Center account (it can suspend every product). Open Merchant Center, " +
      "read the issue and its help link, and act on it; pharmafeed cannot fix account issues.",
    "feeds-stale":
      "The marketplaces are fetching old prices and stock. Check that the nightly job runs (crontab or `systemctl list-timers pharmafeed.timer`), " +
      "read its last log, and run `pharmafeed generate` by hand.",
    "run-recovered": "Nothing to do: this run published every feed, after a run that failed or left feeds out.",
  },
  notUpdated: "{n} feed(s) not updated; their previous files stay online.",
  degraded: "Every feed was published, but:",
  notRun: "not updated: the previous file stays online",
  channels: "Channels",
  whatToDo: "What to do",
  statusPage: "Status page",
  footer: "Host {host}, {at}{exit}.",
  exitCode: ", exit code ",
  staleWhat: "The newest feed online is {age} h old, more than the {max} h allowed: marketplaces get old prices and stock.",
  staleNone: "No feed is online: marketplaces get nothing.",
  onlineSince: "online file published {at}",
  nothingOnline: "nothing online",
  forceYes: " If the file is right as it is (fewer offers on purpose), publish it anyway with `{cmd}`.",
  forceNo: " Do not use --force here: it would publish without the refused rows, each of their products left out or sold at catalogue prices and stock.",
  retire: " {channel} stays online because a marketplace fetched it: register the new feed's address at that marketplace{near}, then stop serving the old one with `{cmd}`.",
  nearName: " (the config now names {near})",
  hint: {
    source: "check the catalogue's base URL, credentials and service status.",
    CONFIG_INVALID: "fix the file and field named there and check it with `{validate}`.",
    RUN_DIED: "it was stopped from outside, ran out of memory or crashed: look at the system journal around that time (`journalctl -k`, `dmesg`).",
    LOCK_HELD: "another run still holds the lock of the output directory; if no run is going, the lock is taken over once its heartbeat is stale.",
    other: "fix what it names.",
  },
};

const fr: AlertWords = {
  title: {
    "gate-tripped": "publication retenue : flux non mis à jour",
    "channel-failed": "un canal a échoué : flux non mis à jour",
    "offers-refused": "fichier d'offres refusé : rien n'a été publié",
    "run-degraded": "flux publiés, mais autre chose a échoué",
    "run-failed": "l'exécution a échoué : rien n'a été publié",
    "feeds-stale": "les flux sont périmés",
    "merchant-disapprovals": "Google a refusé beaucoup plus de produits",
    "merchant-account-issue": "Google signale un problème sur le compte Merchant Center",
    "run-recovered": "flux de nouveau publiés : tout est rentré dans l'ordre",
  },
  next: {
    "gate-tripped":
      "Les fichiers précédents restent en ligne. Regardez {reports} et le catalogue pour comprendre pourquoi le flux a rétréci ou pourquoi tant de produits ont été rejetés ; " +
      "si le nouveau flux est juste, publiez-le avec `{cmd}`.",
    "channel-failed":
      "Les autres canaux ont été publiés ; ceux en échec gardent leur fichier précédent. Lisez l'erreur dans le journal de l'exécution (un modèle, un disque plein), " +
      "corrigez-la, puis lancez `{cmd}`.",
    "offers-refused":
      "Rien n'a été publié ; les flux précédents restent en ligne avec leurs anciens prix et stocks. Corrigez le fichier d'offres aux lignes indiquées ci-dessus et dans " +
      "reports/_offers.csv (en-tête, colonne clé, format), puis relancez `{cmd}`.{force}",
    "run-degraded":
      "Les flux ont été publiés. Lisez ci-dessus ce qui a échoué et le journal de l'exécution.{retire}",
    "run-failed":
      "Rien de cette exécution n'a été publié ; les flux précédents restent en ligne. Lisez l'erreur ci-dessus et le journal : {hint} " +
      "La prochaine exécution planifiée réessaie, ou lancez `{cmd}` à la main.",
    "merchant-disapprovals":
      "Google a refusé beaucoup plus de produits depuis la dernière lecture. `pharmafeed explain <id>` montre le problème signalé par Google pour un produit, " +
      "reports/google-issues.csv les liste tous avec les liens d'aide de Google ; corrigez les données (ou la configuration du flux), Google vérifie à nouveau lors de sa prochaine lecture.",
    "merchant-account-issue":
      "Google signale un problème sur tout le compte Merchant Center (il peut suspendre tous les produits). Ouvrez Merchant Center, " +
      "lisez le problème et son lien d'aide, et agissez ; pharmafeed ne peut pas corriger les problèmes de compte.",
    "feeds-stale":
      "Les places de marché récupèrent d'anciens prix et stocks. Vérifiez que la tâche de nuit tourne (crontab ou `systemctl list-timers pharmafeed.timer`), " +
      "lisez son dernier journal et lancez `pharmafeed generate` à la main.",
    "run-recovered": "Rien à faire : cette exécution a publié tous les flux, après une exécution en échec ou incomplète.",
  },
  notUpdated: "{n} flux non mis à jour ; leurs fichiers précédents restent en ligne.",
  degraded: "Tous les flux ont été publiés, mais :",
  notRun: "non mis à jour : le fichier précédent reste en ligne",
  channels: "Canaux",
  whatToDo: "Que faire",
  statusPage: "Page d'état",
  footer: "Machine {host}, {at}{exit}.",
  exitCode: ", code de sortie ",
  staleWhat: "Le flux en ligne le plus récent a {age} h, plus que les {max} h admises : les places de marché reçoivent d'anciens prix et stocks.",
  staleNone: "Aucun flux en ligne : les places de marché ne reçoivent rien.",
  onlineSince: "fichier en ligne publié le {at}",
  nothingOnline: "rien en ligne",
  forceYes: " Si le fichier est juste tel quel (moins d'offres à dessein), publiez-le quand même avec `{cmd}`.",
  forceNo: " N'utilisez pas --force ici : il publierait sans les lignes refusées, chacun de leurs produits retiré ou vendu aux prix et stocks du catalogue.",
  retire: " {channel} reste en ligne parce qu'une place de marché l'a récupéré : enregistrez l'adresse du nouveau flux auprès de cette place de marché{near}, puis arrêtez de servir l'ancien avec `{cmd}`.",
  nearName: " (la configuration nomme maintenant {near})",
  hint: {
    source: "vérifiez l'adresse du catalogue, les identifiants et l'état du service.",
    CONFIG_INVALID: "corrigez le fichier et le champ indiqués et vérifiez-les avec `{validate}`.",
    RUN_DIED: "elle a été arrêtée de l'extérieur, a manqué de mémoire ou a planté : regardez le journal du système à cette heure-là (`journalctl -k`, `dmesg`).",
    LOCK_HELD: "une autre exécution tient encore le verrou du dossier de sortie ; si aucune ne tourne, le verrou est repris dès que son signal de vie est trop ancien.",
    other: "corrigez ce qu'elle indique.",
  },
};

const nl: AlertWords = {
  title: {
    "gate-tripped": "publicatie tegengehouden: feeds niet bijgewerkt",
    "channel-failed": "een kanaal is mislukt: feed niet bijgewerkt",
    "offers-refused": "aanbiedingenbestand geweigerd: niets gepubliceerd",
    "run-degraded": "feeds gepubliceerd, maar iets anders is mislukt",
    "run-failed": "de run is mislukt: niets gepubliceerd",
    "feeds-stale": "de feeds zijn verouderd",
    "merchant-disapprovals": "Google heeft veel meer producten afgekeurd",
    "merchant-account-issue": "Google meldt een probleem met het Merchant Center-account",
    "run-recovered": "feeds weer gepubliceerd: alles in orde",
  },
  next: {
    "gate-tripped":
      "De vorige bestanden blijven online. Bekijk {reports} en de catalogus om te zien waarom de feed kromp of waarom zoveel producten geweigerd werden; " +
      "is de nieuwe feed juist, publiceer hem dan met `{cmd}`.",
    "channel-failed":
      "De andere kanalen zijn gepubliceerd; de mislukte houden hun vorige bestand. Lees de fout in het logboek van de run (een sjabloon, een volle schijf), " +
      "los ze op en start `{cmd}`.",
    "offers-refused":
      "Er is niets gepubliceerd; de vorige feeds blijven online met hun oude prijzen en voorraad. Verbeter het aanbiedingenbestand op de regels hierboven en in " +
      "reports/_offers.csv (kopregel, sleutelkolom, formaat) en start `{cmd}` opnieuw.{force}",
    "run-degraded":
      "De feeds zijn gepubliceerd. Lees hierboven wat mislukte en het logboek van de run.{retire}",
    "run-failed":
      "Niets van deze run is gepubliceerd; de vorige feeds blijven online. Lees de fout hierboven en het logboek: {hint} " +
      "De volgende geplande run probeert opnieuw, of start `{cmd}` met de hand.",
    "merchant-disapprovals":
      "Google heeft sinds de vorige uitlezing veel meer producten afgekeurd. `pharmafeed explain <id>` toont het probleem per product, " +
      "reports/google-issues.csv somt ze allemaal op met de hulplinks van Google; verbeter de gegevens (of de instellingen van de feed), Google controleert opnieuw bij de volgende ophaling.",
    "merchant-account-issue":
      "Google meldt een probleem met het hele Merchant Center-account (het kan alle producten opschorten). Open Merchant Center, " +
      "lees het probleem en de hulplink en onderneem actie; pharmafeed kan accountproblemen niet oplossen.",
    "feeds-stale":
      "De marktplaatsen halen oude prijzen en voorraad op. Controleer of de nachtelijke taak draait (crontab of `systemctl list-timers pharmafeed.timer`), " +
      "lees het laatste logboek en start `pharmafeed generate` met de hand.",
    "run-recovered": "Niets te doen: deze run publiceerde alle feeds, na een run die mislukte of feeds oversloeg.",
  },
  notUpdated: "{n} feed(s) niet bijgewerkt; de vorige bestanden blijven online.",
  degraded: "Alle feeds zijn gepubliceerd, maar:",
  notRun: "niet bijgewerkt: het vorige bestand blijft online",
  channels: "Kanalen",
  whatToDo: "Wat te doen",
  statusPage: "Statuspagina",
  footer: "Machine {host}, {at}{exit}.",
  exitCode: ", exitcode ",
  staleWhat: "De nieuwste online feed is {age} uur oud, meer dan de toegestane {max} uur: marktplaatsen krijgen oude prijzen en voorraad.",
  staleNone: "Geen feed online: marktplaatsen krijgen niets.",
  onlineSince: "online bestand gepubliceerd op {at}",
  nothingOnline: "niets online",
  forceYes: " Is het bestand juist zoals het is (bewust minder aanbiedingen), publiceer het dan toch met `{cmd}`.",
  forceNo: " Gebruik hier geen --force: dat zou publiceren zonder de geweigerde regels, elk van hun producten weggelaten of verkocht tegen catalogusprijs en -voorraad.",
  retire: " {channel} blijft online omdat een marktplaats hem ophaalde: registreer het adres van de nieuwe feed bij die marktplaats{near} en stop dan met het oude via `{cmd}`.",
  nearName: " (de configuratie noemt nu {near})",
  hint: {
    source: "controleer het adres van de catalogus, de inloggegevens en de status van de dienst.",
    CONFIG_INVALID: "verbeter het genoemde bestand en veld en controleer het met `{validate}`.",
    RUN_DIED: "hij werd van buitenaf gestopt, had geen geheugen meer of crashte: bekijk het systeemlogboek rond dat tijdstip (`journalctl -k`, `dmesg`).",
    LOCK_HELD: "een andere run houdt de vergrendeling van de uitvoermap nog vast; loopt er geen, dan wordt ze overgenomen zodra haar hartslag te oud is.",
    other: "los op wat ze noemt.",
  },
};

export const ALERT_WORDS: Record<AlertLanguage, AlertWords> = { en, fr, nl };
