/** Per-locale work shared by the channels of a run: the same choices, made once per product. */
import { describe, expect, it } from "vitest";
import { compileChannel } from "../../src/mapping/compile.js";
import { sharedDescription, sharedImages } from "../../src/mapping/locale-cache.js";
import { selectImages } from "../../src/mapping/photos.js";
import { channel, context, photo, product } from "./fixtures.js";

const withText = () =>
  product({
    descriptions: [{ id: 1, type: "full_description", locales: ["fr", "nl"], targetGroups: ["public"], content: { fr: "<p>Texte <b>fran&ccedil;ais</b></p>", nl: "<p>Nederlandse tekst</p>" } }],
    photos: [photo(1), photo(2, { locales: ["nl"] })],
  });

describe("locale cache", () => {
  it("gives channels of one locale and the same settings one shared choice, and others their own", () => {
    const ctx = context();
    const p = withText();
    const fr1 = compileChannel(channel({ locale: "fr" }));
    const fr2 = compileChannel(channel({ locale: "fr" }));
    const nl = compileChannel(channel({ locale: "nl" }));
    const short = compileChannel(channel({ locale: "fr", description: { maxLength: 8 } }));
    const d = (ch: typeof fr1) => sharedDescription(p, ch.settings.description, ch.chain, ch.chainKey, ctx);
    expect(d(fr1)?.text).toBe("Texte français");
    expect(d(fr2)).toBe(d(fr1));
    expect(d(nl)?.text).toBe("Nederlandse tekst");
    expect(d(short)).not.toBe(d(fr1));
    expect(d(short)?.truncated).toBe(true);
    expect(sharedImages(p, fr2.images, ctx)).toBe(sharedImages(p, fr1.images, ctx));
    expect(sharedImages(p, nl.images, ctx)).toEqual(selectImages(p, nl.images));
  });

  it("computes again for the next product", () => {
    const ctx = context();
    const ch = compileChannel(channel({ locale: "fr" }));
    const first = sharedDescription(withText(), ch.settings.description, ch.chain, ch.chainKey, ctx);
    const second = sharedDescription(withText(), ch.settings.description, ch.chain, ch.chainKey, ctx);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });
});
