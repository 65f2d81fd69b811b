/**
 * Word pools for names, descriptions and reference data, per locale. Built once
 * at module load; products pick from them, so per-product text costs a few
 * concatenations. The HTML is what the service sends (its allowed tags, entities).
 */
import { qInner } from "./json.js";
import type { Rng } from "./prng.js";

export type Locale = "fr" | "nl" | "en" | "de";
export type Tri = { fr: string; nl: string; en: string };

export const BRAND_STEMS = [
  "Derma", "Pharma", "Vita", "Medi", "Nutri", "Bio", "Omega", "Sana", "Cura", "Flora",
  "Aqua", "Pura", "Natu", "Ortho", "Calma", "Immu", "Osteo", "Lacto", "Vigo", "Sensi",
] as const;
export const BRAND_ENDS = ["sol", "line", "care", "lab", "vit", "med", "pharm", "derm", "plus", "ia"] as const;
/** Real-world brand spellings that break naive CSV/XML writers. */
export const ODD_BRANDS = ["Roger & Gallet", "L'Oréal Paris", "Dr. Hauschka", "A-Derma", "Klorane \"Bio\"", "Ducray, Laboratoires"] as const;

export const INGREDIENTS: readonly Tri[] = [
  ["paracétamol", "paracetamol", "paracetamol"], ["ibuprofène", "ibuprofen", "ibuprofen"],
  ["acide acétylsalicylique", "acetylsalicylzuur", "acetylsalicylic acid"], ["amoxicilline", "amoxicilline", "amoxicillin"],
  ["oméprazole", "omeprazol", "omeprazole"], ["cétirizine", "cetirizine", "cetirizine"], ["loratadine", "loratadine", "loratadine"],
  ["diclofénac", "diclofenac", "diclofenac"], ["codéine", "codeïne", "codeine"], ["tramadol", "tramadol", "tramadol"],
  ["diazépam", "diazepam", "diazepam"], ["lorazépam", "lorazepam", "lorazepam"], ["métformine", "metformine", "metformin"],
  ["simvastatine", "simvastatine", "simvastatin"], ["lopéramide", "loperamide", "loperamide"], ["xylométazoline", "xylometazoline", "xylometazoline"],
  ["chlorhexidine", "chloorhexidine", "chlorhexidine"], ["magnésium", "magnesium", "magnesium"], ["vitamine D3", "vitamine D3", "vitamin D3"],
  ["acide hyaluronique", "hyaluronzuur", "hyaluronic acid"], ["zinc", "zink", "zinc"], ["fer", "ijzer", "iron"],
  ["mélatonine", "melatonine", "melatonin"], ["fipronil", "fipronil", "fipronil"], ["milbémycine", "milbemycine", "milbemycin"],
].map(([fr, nl, en]) => ({ fr: fr as string, nl: nl as string, en: en as string }));

/** Product nouns by catalog category type. */
export const MEDICINE_FORMS: readonly Tri[] = [
  ["comprimés", "tabletten", "tablets"], ["gélules", "capsules", "capsules"], ["sirop", "siroop", "syrup"],
  ["comprimés effervescents", "bruistabletten", "effervescent tablets"], ["spray nasal", "neusspray", "nasal spray"],
  ["suppositoires", "zetpillen", "suppositories"], ["gel", "gel", "gel"], ["solution buvable", "drinkbare oplossing", "oral solution"],
].map(([fr, nl, en]) => ({ fr: fr as string, nl: nl as string, en: en as string }));

export const CARE_PRODUCTS: readonly Tri[] = [
  ["Crème de jour", "Dagcrème", "Day cream"], ["Shampooing doux", "Milde shampoo", "Gentle shampoo"],
  ["Lait corporel", "Bodymilk", "Body lotion"], ["Baume à lèvres", "Lippenbalsem", "Lip balm"],
  ["Gel douche", "Douchegel", "Shower gel"], ["Dentifrice", "Tandpasta", "Toothpaste"],
  ["Complément alimentaire", "Voedingssupplement", "Food supplement"], ["Crème solaire SPF50", "Zonnecrème SPF50", "Sun cream SPF50"],
  ["Sérum anti-âge", "Anti-age serum", "Anti-ageing serum"], ["Pansements", "Pleisters", "Plasters"],
  ["Thermomètre", "Thermometer", "Thermometer"], ["Lait infantile", "Zuigelingenmelk", "Infant milk"],
].map(([fr, nl, en]) => ({ fr: fr as string, nl: nl as string, en: en as string }));

export const VET_PRODUCTS: readonly Tri[] = [
  ["pipettes pour chiens", "pipetten voor honden", "spot-on for dogs"], ["comprimés pour chats", "tabletten voor katten", "tablets for cats"],
  ["vermifuge chiens", "ontwormingsmiddel honden", "dewormer for dogs"], ["collier antiparasitaire", "vlooienband", "flea collar"],
].map(([fr, nl, en]) => ({ fr: fr as string, nl: nl as string, en: en as string }));

export const QUALIFIERS: readonly Tri[] = [
  ["Forte", "Forte", "Forte"], ["Junior", "Junior", "Junior"], ["Sans sucre", "Suikervrij", "Sugar free"],
  ["Peaux sensibles", "Gevoelige huid", "Sensitive skin"], ["Bio", "Bio", "Organic"], ["Extra", "Extra", "Extra"],
].map(([fr, nl, en]) => ({ fr: fr as string, nl: nl as string, en: en as string }));

export const EMOJI = ["🌿", "☀️", "💊", "❤️", "👶", "🐶"] as const;
/** Fragments with the five characters every writer must escape. */
export const SPECIAL_FRAGMENTS = [` & Co`, ` <Bio>`, ` "Original"`, ` l'Original`, ` 5 > 3`, ` <b>&amp;</b>`] as const;

/** A paragraph pool per locale: entities, <p>, <br>, <ul><li>, <strong>, as the service's HTML whitelist allows. */
const PARAGRAPHS: Record<Locale, readonly string[]> = {
  fr: [
    "<p>Soulage rapidement les douleurs l&eacute;g&egrave;res &agrave; mod&eacute;r&eacute;es et fait baisser la fi&egrave;vre.</p>",
    "<p><strong>Posologie&nbsp;:</strong> 1 comprim&eacute; toutes les 4 &agrave; 6 heures.<br>Ne pas d&eacute;passer 3 g par jour.</p>",
    "<ul><li>Sans parab&egrave;nes</li><li>Test&eacute; sous contr&ocirc;le dermatologique</li><li>Convient aux peaux &laquo;&nbsp;sensibles&nbsp;&raquo;</li></ul>",
    "<p>Tenir hors de la port&eacute;e des enfants. Conserver &lt; 25&nbsp;&deg;C.</p>",
    "<p>Formule enrichie en vitamines B6 &amp; B12, pour r&eacute;duire la fatigue.<br />Format pratique &agrave; emporter.</p>",
    "<p>Appliquer matin et soir sur une peau propre et s&egrave;che. <em>Usage externe.</em></p>",
    "<h3>Composition</h3><table border=\"1\"><thead><tr><th>Ingr&eacute;dient</th><th>Pour 100 g</th></tr></thead><tbody><tr><td>&Eacute;nergie</td><td>1&nbsp;520 kJ / 360 kcal</td></tr><tr><td>Mati&egrave;res grasses</td><td>2,1 g</td></tr><tr><td>Glucides</td><td>78 g</td></tr><tr><td>Vitamine C</td><td>80 mg (100&nbsp;% AR*)</td></tr></tbody></table><p><sup>*</sup>AR&nbsp;: apports de r&eacute;f&eacute;rence.</p>",
    "<p>Ce m&eacute;dicament contient une substance active qui agit sur les centres de la douleur et de la fi&egrave;vre. Il est indiqu&eacute; chez l&#39;adulte et l&#39;enfant &agrave; partir de 15&nbsp;kg (environ 4 ans) dans le traitement symptomatique des douleurs d&#39;intensit&eacute; l&eacute;g&egrave;re &agrave; mod&eacute;r&eacute;e et/ou des &eacute;tats f&eacute;briles.</p><p>En cas de doute, demandez conseil &agrave; votre m&eacute;decin ou &agrave; votre pharmacien.</p>",
    "<ol><li>Bien agiter avant emploi.</li><li>Appliquer une noisette de produit sur la zone &agrave; traiter.</li><li>Masser d&eacute;licatement jusqu&#39;&agrave; p&eacute;n&eacute;tration compl&egrave;te.</li><li>Renouveler l&#39;application 2 &agrave; 3 fois par jour si n&eacute;cessaire.</li></ol><p><em>Ne pas appliquer sur une peau l&eacute;s&eacute;e ou sur les muqueuses.</em></p>",
  ],
  nl: [
    "<p>Verlicht snel lichte tot matige pijn en verlaagt koorts.</p>",
    "<p><strong>Dosering:</strong> 1 tablet om de 4 tot 6 uur.<br>Niet meer dan 3 g per dag.</p>",
    "<ul><li>Zonder parabenen</li><li>Dermatologisch getest</li><li>Geschikt voor de &quot;gevoelige&quot; huid</li></ul>",
    "<p>Buiten het bereik van kinderen houden. Bewaren &lt; 25&nbsp;&deg;C.</p>",
    "<p>Formule met vitamine B6 &amp; B12, vermindert vermoeidheid.<br />Handig formaat voor onderweg.</p>",
    "<p>&#39;s Ochtends en &#39;s avonds aanbrengen op een schone, droge huid.</p>",
    "<h3>Samenstelling</h3><table border=\"1\"><thead><tr><th>Ingredi&euml;nt</th><th>Per 100 g</th></tr></thead><tbody><tr><td>Energie</td><td>1&nbsp;520 kJ / 360 kcal</td></tr><tr><td>Vetten</td><td>2,1 g</td></tr><tr><td>Koolhydraten</td><td>78 g</td></tr><tr><td>Vitamine C</td><td>80 mg (100&nbsp;% RI*)</td></tr></tbody></table><p><sup>*</sup>RI: referentie-inname.</p>",
    "<p>Dit geneesmiddel bevat een werkzame stof die inwerkt op de pijn- en koortscentra. Het is bestemd voor volwassenen en kinderen vanaf 15&nbsp;kg (ongeveer 4 jaar) voor de symptomatische behandeling van lichte tot matige pijn en/of koorts.</p><p>Raadpleeg bij twijfel uw arts of apotheker.</p>",
    "<ol><li>Goed schudden voor gebruik.</li><li>Breng een kleine hoeveelheid aan op de te behandelen zone.</li><li>Zachtjes inmasseren tot volledig ingetrokken.</li><li>Indien nodig 2 tot 3 keer per dag herhalen.</li></ol><p><em>Niet aanbrengen op een beschadigde huid of op slijmvliezen.</em></p>",
  ],
  en: [
    "<p>Fast relief of mild to moderate pain and fever.</p>",
    "<p><strong>Dosage:</strong> 1 tablet every 4 to 6 hours.<br>Do not exceed 3 g per day.</p>",
    "<ul><li>Paraben free</li><li>Dermatologically tested</li><li>Suitable for &quot;sensitive&quot; skin</li></ul>",
    "<p>Keep out of the reach of children. Store &lt; 25&nbsp;&deg;C.</p>",
    "<p>Enriched with vitamins B6 &amp; B12 to reduce tiredness.<br />Handy travel size.</p>",
    "<p>Apply morning &amp; evening to clean, dry skin. <em>For external use only.</em></p>",
    "<h3>Composition</h3><table border=\"1\"><thead><tr><th>Ingredient</th><th>Per 100 g</th></tr></thead><tbody><tr><td>Energy</td><td>1&nbsp;520 kJ / 360 kcal</td></tr><tr><td>Fat</td><td>2.1 g</td></tr><tr><td>Carbohydrates</td><td>78 g</td></tr><tr><td>Vitamin C</td><td>80 mg (100&nbsp;% RI*)</td></tr></tbody></table><p><sup>*</sup>RI: reference intake.</p>",
    "<p>This medicine contains an active substance that acts on the pain and fever centres. It is indicated in adults and children from 15&nbsp;kg (about 4 years) for the symptomatic treatment of mild to moderate pain and/or fever.</p><p>If in doubt, ask your doctor or pharmacist.</p>",
    "<ol><li>Shake well before use.</li><li>Apply a small amount to the area to be treated.</li><li>Massage gently until fully absorbed.</li><li>Repeat 2 to 3 times a day if needed.</li></ol><p><em>Do not apply to broken skin or mucous membranes.</em></p>",
  ],
  de: [
    "<p>Lindert rasch leichte bis m&auml;&szlig;ige Schmerzen und senkt Fieber.</p>",
    "<ul><li>Ohne Parabene</li><li>Dermatologisch getestet</li></ul>",
    "<p>F&uuml;r Kinder unzug&auml;nglich aufbewahren.</p>",
  ],
};

/**
 * Every content a description can have, per locale, escaped as JSON string
 * contents once at load: paragraph `first`, then the one 1 or 2 further, then
 * optionally the one 3 further (36 combinations for nine paragraphs). A
 * product's description then costs one lookup per locale, whatever its length.
 */
const CONTENTS: Record<Locale, string[]> = Object.fromEntries(
  Object.entries(PARAGRAPHS).map(([locale, pool]) => {
    const combos: string[] = [];
    for (let first = 0; first < pool.length; first++) {
      for (let skip = 0; skip < 2; skip++) {
        for (let third = 0; third < 2; third++) {
          let html = (pool[first] as string) + (pool[(first + 1 + skip) % pool.length] as string);
          if (third === 1) html += pool[(first + 3) % pool.length] as string;
          combos.push(qInner(html));
        }
      }
    }
    return [locale, combos];
  }),
) as Record<Locale, string[]>;

/** HTML content of one description in one locale (two or three paragraphs), as JSON string contents. */
export function descriptionHtmlJson(rng: Rng, locale: Locale): string {
  const combos = CONTENTS[locale];
  return combos[rng.int(0, combos.length - 1)] as string;
}

export const PERSON_FIRST = ["Anne", "Luc", "Sofie", "Marc", "Julie", "Pieter", "Camille", "Tom", "Élodie", "Jan"] as const;
export const PERSON_LAST = ["Peeters", "Janssens", "Dubois", "Lambert", "Maes", "Martin", "Leroy", "Claes", "Girard", "Smet"] as const;
export const CITIES = [["Bruxelles", "BE", "1000"], ["Antwerpen", "BE", "2000"], ["Gent", "BE", "9000"], ["Liège", "BE", "4000"], ["Paris", "FR", "75001"], ["Lyon", "FR", "69001"], ["Lille", "FR", "59000"]] as const;
