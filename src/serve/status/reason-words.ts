/** Reason and warning codes in a few words, per language, for the status page (the code stays beside them). */
import type { Language } from "./i18n.js";

type Triple = [en: string, fr: string, nl: string];

const WORDS: Record<string, Triple> = {
  DELETED: ["deleted in the catalogue", "supprimé du catalogue", "verwijderd uit de catalogus"],
  REPLACED: ["replaced by another product", "remplacé par un autre produit", "vervangen door een ander product"],
  STATUS_INACTIVE: ["inactive", "inactif", "inactief"],
  STATUS_NO_SELECTION: ["not for selection", "hors sélection", "niet voor selectie"],
  STATUS_UNKNOWN: ["unknown status", "statut inconnu", "onbekende status"],
  OFFICIALLY_DELETED: ["officially withdrawn", "retiré officiellement", "officieel ingetrokken"],
  POLICY_DENIED: ["not allowed by the health rules", "interdit par les règles de santé", "niet toegestaan door de gezondheidsregels"],
  // Codes of versions before the policy table (POLICY_DENIED), for reports kept from then.
  PRESCRIPTION: ["prescription only", "sur ordonnance", "op voorschrift"],
  MEDICINE: ["medicine, not allowed here", "médicament, non autorisé ici", "geneesmiddel, hier niet toegestaan"],
  VETERINARY: ["veterinary medicine, not allowed here", "médicament vétérinaire, non autorisé ici", "diergeneesmiddel, hier niet toegestaan"],
  RULE_EXCLUDED: ["excluded by a rule", "exclu par une règle", "uitgesloten door een regel"],
  RULE_NOT_INCLUDED: ["not selected by the include rule", "non retenu par la règle d'inclusion", "niet geselecteerd door de insluitregel"],
  NO_OFFER: ["not in the offers file", "absent du fichier d'offres", "niet in het aanbiedingenbestand"],
  OUT_OF_STOCK: ["out of stock", "en rupture de stock", "niet op voorraad"],
  MISSING_TITLE: ["no name", "pas de nom", "geen naam"],
  MISSING_DESCRIPTION: ["no description", "pas de description", "geen beschrijving"],
  MISSING_LINK: ["no product page link", "pas de lien vers la fiche produit", "geen link naar de productpagina"],
  MISSING_BRAND: ["no brand", "pas de marque", "geen merk"],
  MISSING_CODE: ["no pharmacy code the channel requires", "pas de code pharmacie requis par le canal", "geen apotheekcode die het kanaal vereist"],
  INVALID_ID: ["unusable id", "identifiant inutilisable", "onbruikbare id"],
  MISSING_GTIN: ["no GTIN", "pas de GTIN", "geen GTIN"],
  INVALID_GTIN: ["no valid GTIN", "aucun GTIN valide", "geen geldige GTIN"],
  NO_PRICE: ["no price", "pas de prix", "geen prijs"],
  INVALID_PRICE: ["invalid price", "prix invalide", "ongeldige prijs"],
  INVALID_VAT: ["invalid VAT", "TVA invalide", "ongeldige btw"],
  NO_IMAGE: ["no usable photo", "pas de photo utilisable", "geen bruikbare foto"],
  IMAGE_FAILED: ["image could not be processed", "image impossible à traiter", "afbeelding kon niet verwerkt worden"],
  MAPPING_ERROR: ["malformed record", "fiche mal formée", "misvormd record"],
  GTIN_DROPPED: ["an invalid GTIN left out", "un GTIN invalide écarté", "een ongeldige GTIN weggelaten"],
  VAT_IGNORED: ["invalid VAT ignored", "TVA invalide ignorée", "ongeldige btw genegeerd"],
  PRICE_SOURCE_SKIPPED: ["a bad price skipped", "un prix invalide ignoré", "een foute prijs overgeslagen"],
  SALE_IGNORED: ["sale price not below the price", "prix promo pas inférieur au prix", "actieprijs niet lager dan de prijs"],
  DESCRIPTION_TRUNCATED: ["description shortened", "description raccourcie", "beschrijving ingekort"],
  TITLE_TRUNCATED: ["title shortened", "titre raccourci", "titel ingekort"],
  IMAGE_FALLBACK: ["catalogue image used", "image du catalogue utilisée", "catalogusafbeelding gebruikt"],
  IMAGE_DROPPED: ["an extra image left out", "une image supplémentaire écartée", "een extra afbeelding weggelaten"],
  MISSING_LANGUAGE: ["no text in the feed's language", "pas de texte dans la langue du flux", "geen tekst in de taal van de feed"],
  MISSING_CATEGORY: ["no category", "pas de catégorie", "geen categorie"],
  UNIT_MEASURE_MISMATCH: ["unit price not computable", "prix à l'unité non calculable", "eenheidsprijs niet te berekenen"],
  OFFER_REFUSED: ["offers row refused", "ligne d'offre refusée", "aanbiedingsregel geweigerd"],
  IMPLAUSIBLE_PRICE: ["implausible offer price", "prix d'offre invraisemblable", "onwaarschijnlijke aanbiedingsprijs"],
  OFFER_NOT_USED: ["offers row not used: catalogue price", "ligne d'offre non utilisée : prix du catalogue", "aanbiedingsregel niet gebruikt: catalogusprijs"],
  MISSING_AVAILABILITY_DATE: ["preorder or backorder without a date", "précommande ou réapprovisionnement sans date", "voorbestelling of nalevering zonder datum"],
  CODE_INVALID: ["a pharmacy code failed its check and was left out", "un code pharmacie invalide a été écarté", "een ongeldige apotheekcode weggelaten"],
};

/** A code without words (a new one): words that say so, never the code twice. */
const OTHER: Triple = ["other reason", "autre raison", "andere reden"];

const AT: Record<Language, number> = { en: 0, fr: 1, nl: 2 };

export function reasonWords(code: string, lang: Language): string {
  return (WORDS[code] ?? OTHER)[AT[lang]] ?? OTHER[0];
}
