/**
 * Every name a channel uses, checked against what its items have before any
 * work: the title, link, id and custom templates and the rules (over the
 * product and the derived names), and the layout (over the FeedItem). A name no
 * item has would render empty cells or never match, silently, on every product.
 * Each problem says the file, the JSON path (or template line), the name and the
 * closest known one.
 */
import { join } from "node:path";
import { checkPath, describeUnknown, MAPPING_FIELDS } from "../mapping/field-shapes.js";
import { DERIVED_FIELDS } from "../mapping/fields.js";
import type { Rule } from "../mapping/rules.js";
import type { ChannelMapping } from "../mapping/settings.js";
import { templateVariables } from "../mapping/template.js";
import { itemShape, META_SHAPE } from "../writers/item-shape.js";
import type { LoadedLayout } from "../writers/layout.js";
import { prototypeName, templateFieldProblems } from "../writers/template-fields.js";

/** One mapping name: `message` when no item has it. */
function mappingFieldProblem(name: string): string | undefined {
  const steps = name.split(".");
  const forbidden = prototypeName(steps);
  if (forbidden !== undefined) return `"${name}" reaches the prototype (${forbidden}), not data`;
  const unknown = checkPath(MAPPING_FIELDS, steps, name);
  return unknown === undefined ? undefined : `${describeUnknown(unknown)}; see README "Eligibility and rules" for the names`;
}

/**
 * Derived names policy.generalSale may use: it is judged before the item is built, so the names
 * that need it (title, price, availability, ...) would be empty there. Catalogue paths are fine.
 */
const KNOWN_BEFORE_THE_ITEM = new Set(["id", "status", "brandId", "categoryId", "categoryType", "prescription", "medicine", "veterinary", "healthClasses", "mpn", "cip13", "acl13", "packageContent", "locale", "country", "currency"]);

/** The problems of the fields of policy.generalSale (`at`: its path in the file). */
export function generalSaleFieldProblems(file: string, at: string, rule: Rule): string[] {
  const lines: string[] = [];
  for (const [path, field] of ruleFields(rule, at)) {
    const problem = mappingFieldProblem(field);
    if (problem !== undefined) lines.push(`${file}: ${path}: ${problem}`);
    else if (Object.hasOwn(DERIVED_FIELDS, field) && !KNOWN_BEFORE_THE_ITEM.has(field)) {
      lines.push(`${file}: ${path}: "${field}" is not known yet when the health class is decided (before the item is built); use a catalogue path (atc, catalogCategories.id) or one of ${[...KNOWN_BEFORE_THE_ITEM].join(", ")}`);
    }
  }
  return lines;
}

function* ruleFields(rule: Rule, path: string): Generator<[string, string]> {
  if ("all" in rule) for (const [i, r] of rule.all.entries()) yield* ruleFields(r, `${path}.all[${i}]`);
  else if ("any" in rule) for (const [i, r] of rule.any.entries()) yield* ruleFields(r, `${path}.any[${i}]`);
  else if ("not" in rule) yield* ruleFields(rule.not, `${path}.not`);
  else yield [`${path}.field`, rule.field];
}

export function mappingFieldProblems(file: string, mapping: ChannelMapping): string[] {
  const lines: string[] = [];
  const templates: [string, string][] = [
    ["id.template", mapping.id.template],
    ["title.template", mapping.title.template],
    ["link.template", mapping.link.template],
    ...Object.entries(mapping.custom).map(([name, t]): [string, string] => [`custom.${name}`, t]),
  ];
  for (const [path, template] of templates) {
    for (const name of new Set(templateVariables(template))) {
      const problem = mappingFieldProblem(name);
      if (problem !== undefined) lines.push(`${file}: ${path}: ${problem}`);
    }
  }
  const rules: [string, Rule][] = [
    ...(mapping.eligibility.include === undefined ? [] : [["eligibility.include", mapping.eligibility.include] as [string, Rule]]),
    ...mapping.eligibility.exclude.map((r, i): [string, Rule] => [`eligibility.exclude[${i}]`, r]),
  ];
  for (const [at, rule] of rules) {
    for (const [path, field] of ruleFields(rule, at)) {
      const problem = mappingFieldProblem(field);
      if (problem !== undefined) lines.push(`${file}: ${path}: ${problem}`);
    }
  }
  if (mapping.policy.generalSale !== undefined) lines.push(...generalSaleFieldProblems(file, "policy.generalSale", mapping.policy.generalSale));
  return lines;
}

/**
 * `custom` is the channel's own layout: its `custom.<name>` must be one the channel
 * defines. The built-in layouts name optional custom fields and stay open.
 */
export function layoutFieldProblems(layout: LoadedLayout, customNames: readonly string[] | undefined): string[] {
  const item = itemShape(customNames);
  const lines: string[] = [];
  const spec = layout.spec;
  if (spec.format === "xml") {
    const parts: [string, string, typeof item][] = [
      [spec.header, layout.templates?.header ?? "", META_SHAPE],
      [spec.item, layout.templates?.item ?? "", item],
      [spec.footer, layout.templates?.footer ?? "", META_SHAPE],
    ];
    for (const [name, text, shape] of parts) {
      for (const p of templateFieldProblems(text, shape)) lines.push(`${join(layout.source, name)}: line ${p.line ?? "?"}: ${p.message}`);
    }
    return lines;
  }
  for (const [i, column] of (spec.columns ?? []).entries()) {
    for (const p of templateFieldProblems(column.value, item)) {
      lines.push(`${join(layout.source, "layout.json")}: columns[${i}].value ("${column.header}"): ${p.message}`);
    }
  }
  return lines;
}
