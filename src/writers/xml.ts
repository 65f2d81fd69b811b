/**
 * XML from three Handlebars templates (header, item, footer), every `{{value}}`
 * XML-escaped by the writer (tabs and line breaks too inside an attribute value) and
 * `{{cdata value}}` for CDATA sections.
 */
import { escapeXml, escapeXmlAttribute, XML_ATTRIBUTE_TOUCHES, XML_TOUCHES } from "./escape.js";
import type { LoadedLayout } from "./layout.js";
import { createTemplateEngine } from "./template.js";
import type { FeedMeta, FeedWriter } from "./types.js";

// Attribute values escape tabs and line breaks too (xml-context.ts); text content keeps them.
const engine = createTemplateEngine(escapeXml, { touches: XML_TOUCHES, attribute: { escape: escapeXmlAttribute, touches: XML_ATTRIBUTE_TOUCHES } });

export function createXmlWriter(layout: LoadedLayout, meta: FeedMeta): FeedWriter {
  if (layout.spec.format !== "xml" || !layout.templates) throw new TypeError(`xml writer given a ${layout.spec.format} layout`);
  const { header, item, footer } = layout.templates;
  const renderHeader = engine.compile(header, `${layout.source}/${layout.spec.header}`);
  const renderItem = engine.compile(item, `${layout.source}/${layout.spec.item}`, { track: true });
  const renderFooter = engine.compile(footer, `${layout.source}/${layout.spec.footer}`);
  const filled: number[] = [];
  return {
    header: () => renderHeader(meta),
    row: (feedItem) => renderItem(feedItem, filled),
    rowIfClean: (feedItem) => renderItem.ifClean(feedItem, filled),
    columns: renderItem.tracked,
    filled,
    separator: "",
    footer: () => renderFooter(meta),
  };
}
