import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cdata, escapeXml, stripInvalidXmlChars, tsvValue } from "../../src/writers/escape.js";
import { createTemplateEngine } from "../../src/writers/template.js";
import { isPharmafeedError } from "../../src/errors.js";

describe("escapeXml", () => {
  it.each([
    ["plain", "plain"],
    [`A & B <c> "d" 'e'`, "A &amp; B &lt;c&gt; &quot;d&quot; &apos;e&apos;"],
    ["https://x/?a=1&b=2=3", "https://x/?a=1&amp;b=2=3"],
    ["already &amp; escaped", "already &amp;amp; escaped"],
    ["ctrl\u0001\u0008\u000b\u001f kept\ttab\nlf", "ctrl kept\ttab\nlf"],
    ["cr\r", "cr&#13;"],
    ["emoji 😀", "emoji 😀"],
    ["lone \ud800 surrogate \udc00", "lone  surrogate "],
    ["\ufffe\uffff", ""],
  ])("%j -> %j", (input, expected) => {
    expect(escapeXml(input)).toBe(expected);
  });
});

describe("escapeXml as a property", () => {
  // The rule written plainly: drop what XML 1.0 forbids (lone surrogates included), then one entity per special.
  const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#13;" };
  const reference = (s: string) =>
    s
      // eslint-disable-next-line no-control-regex -- the characters under test
      .replace(/[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
      .replace(/[&<>"'\r]/g, (c) => ENTITIES[c]!);
  const CHARS = ["a", "é", " ", "&", "<", ">", '"', "'", "\r", "\n", "\t", "\u0000", "\u0008", "\u000b", "\u001f", "\u007f", "\u0085", "\ud83d", "\ude00", "😀", "\ufffe", "\uffff", "&amp;"];

  it("drops what XML forbids and escapes each special once, whatever the mix", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }), (chars) => {
        const s = chars.join("");
        expect(escapeXml(s)).toBe(reference(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("cdata", () => {
  it("splits ]]> and steps out for CR", () => {
    expect(cdata("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
    expect(cdata("a\rb")).toBe("<![CDATA[a]]>&#13;<![CDATA[b]]>");
    expect(cdata("x\u0000y")).toBe("<![CDATA[xy]]>");
  });
});

describe("tsvValue and stripInvalidXmlChars", () => {
  it("never leaves a tab or a line break in a TSV value", () => {
    expect(tsvValue("a\tb\r\nc\n\nd")).toBe("a b c d");
  });
  it("never leaves a straight quote in a TSV value: typographic quotes by position", () => {
    expect(tsvValue('"Doux" et "frais", dit-on')).toBe("“Doux” et “frais”, dit-on");
    expect(tsvValue('Écran 2" (x "y")')).toBe("Écran 2” (x “y”)");
    expect(tsvValue("no quote")).toBe("no quote");
  });
  it("keeps valid astral characters", () => {
    expect(stripInvalidXmlChars("💊\u0007")).toBe("💊");
  });
});

describe("template engine", () => {
  const xml = createTemplateEngine(escapeXml);

  it("escapes every double-stash value once and never HTML-escapes", () => {
    const render = xml.compile(`<a href="{{link}}">{{title}}</a>{{#each xs}}<i>{{this}}</i>{{/each}}`, "t");
    expect(render({ link: "https://x/?a=1&b==", title: "<b>&amp;", xs: ["'", "="] })).toBe(
      `<a href="https://x/?a=1&amp;b==">&lt;b&gt;&amp;amp;</a><i>&apos;</i><i>=</i>`,
    );
  });

  it("escapes helper results but not SafeStrings (cdata) nor triple-stash", () => {
    const render = xml.compile(`{{join xs "&"}}|{{cdata d}}|{{{raw}}}|{{default missing "<none>"}}`, "t");
    expect(render({ xs: ["<", ">"], d: "<p>", raw: "<raw/>" })).toBe("&lt;&amp;&gt;|<![CDATA[<p>]]>|<raw/>|&lt;none&gt;");
  });

  it("renders missing values as empty strings", () => {
    expect(xml.compile("[{{salePrice.text}}]", "t")({})).toBe("[]");
  });

  it.each([
    ["{{#each}", "does not compile"],
    ["{{nosuchhelper title}}", 'unknown helper "nosuchhelper"'],
    ["{{#nosuchblock}}x{{/nosuchblock}}", 'unknown helper "nosuchblock"'],
    ["{{join (nosuch x) ','}}", 'unknown helper "nosuch"'],
  ])("refuses %j with CONFIG_INVALID", (template, message) => {
    try {
      xml.compile(template, "bad.hbs");
      expect.unreachable();
    } catch (error) {
      expect(isPharmafeedError(error, "CONFIG_INVALID")).toBe(true);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).toContain("bad.hbs");
    }
  });
});
