/**
 * A name no item has is refused before any work, by `validate` and by every
 * run: the file, the JSON path (or template line), the name and the closest
 * known one.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { PharmafeedError } from "../../src/errors.js";
import { ensureBuilt, killAll, runCli } from "../e2e/cli.js";
import { TEST_ENV, VALID_MAIN, VALID_TREE, refusal as refuse, writeTree, type Tree } from "./tree.js";

const roots: string[] = [];
beforeAll(() => ensureBuilt());
afterAll(async () => {
  killAll();
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

/** VALID_TREE plus one channel `custom` with these settings (and files). */
function withChannel(channel: Record<string, unknown>, files: Tree = {}): Tree {
  return {
    ...VALID_TREE,
    "config/pharmafeed.json": { ...VALID_MAIN, channels: [...VALID_MAIN.channels, "channels/custom.json"] },
    "config/channels/custom.json": { name: "custom", preset: "generic-csv", ...channel },
    ...files,
  };
}

const refusal = (tree: Tree): Promise<PharmafeedError> => refuse(tree, roots);

async function accepted(tree: Tree): Promise<void> {
  const root = await writeTree(tree);
  roots.push(root);
  await loadConfig(join(root, "config/pharmafeed.json"), { env: TEST_ENV });
}

const csvLayout = (...values: string[]) => ({ format: "csv", columns: values.map((value, i) => ({ header: `c${i}`, value })) });

describe("names checked against what items have", () => {
  it("refuses {{titel}} and {{price.amout}} in a custom layout, with file, column and suggestion", async () => {
    const error = await refusal(
      withChannel({ template: "../my-layout" }, { "config/my-layout/layout.json": csvLayout("{{id}}", "{{titel}}", "{{default price.amout \"0\"}}") }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatch(/my-layout\/layout\.json: columns\[1\]\.value \("c1"\): unknown field "titel" \(did you mean "title"\?\)/);
    expect(error.message).toMatch(/my-layout\/layout\.json: columns\[2\]\.value \("c2"\): unknown field "price\.amout" \(did you mean "price\.amount"\?\)/);
    expect(error.message).toMatch(/^configuration refused \(2 problems\)/);
  });

  it("knows {{codes.cnk}} in a custom layout and refuses a code the item does not carry", async () => {
    await accepted(withChannel({ template: "../my-layout" }, { "config/my-layout/layout.json": csvLayout("{{id}}", "{{codes.cnk}}", "{{codes.cip7}}") }));
    const error = await refusal(withChannel({ template: "../my-layout" }, { "config/my-layout/layout.json": csvLayout("{{id}}", "{{codes.ean}}") }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatch(/columns\[1\]\.value \("c1"\): unknown field "codes\.ean"/);
  });

  it("follows an XML template's scopes: #each, #with, ../ and @root; reports the line", async () => {
    const files: Tree = {
      "config/my-layout/layout.json": { format: "xml", header: "h.hbs", item: "i.hbs", footer: "f.hbs" },
      "config/my-layout/h.hbs": "<feed>{{title}} {{generatedAt}}",
      "config/my-layout/f.hbs": "{{channell}}</feed>",
      "config/my-layout/i.hbs": [
        "<item>{{id}}",
        "{{#each additionalImageLinks}}<img n=\"{{@index}}\">{{this}} {{../title}} {{@root.brand}}</img>{{/each}}",
        "{{#with price}}{{amount}} {{curency}}{{/with}}",
        "{{#if salePrice}}{{salePrice.text}}{{else}}{{custom.deliveryCosts}}{{/if}}",
        "{{desciption}}</item>",
      ].join("\n"),
    };
    const error = await refusal(withChannel({ template: "../my-layout", custom: { deliveryCosts: "4.90" } }, files));
    expect(error.message).toMatch(/i\.hbs: line 3: unknown field "curency" \(did you mean "currency"\?\)/);
    expect(error.message).toMatch(/i\.hbs: line 5: unknown field "desciption" \(did you mean "description"\?\)/);
    expect(error.message).toMatch(/f\.hbs: line 1: unknown field "channell" \(did you mean "channel"\?\)/);
    expect(error.message).toMatch(/^configuration refused \(3 problems\)/);
  });

  it("closes custom.<name> to the channel's own custom fields in its own layout", async () => {
    const error = await refusal(
      withChannel({ template: "../my-layout", custom: { deliveryCosts: "4.90" } }, { "config/my-layout/layout.json": csvLayout("{{custom.deliveryCost}}") }),
    );
    expect(error.message).toMatch(/unknown field "custom\.deliveryCost" \(did you mean "custom\.deliveryCosts"\?\)/);
  });

  it("refuses {{slug}} in a link template and {{titel}} in a title template, naming the JSON path", async () => {
    const error = await refusal(withChannel({ link: { template: "https://shop.example/{{slug}}-{{id}}" }, title: { template: "{{brand}} {{titel}}" } }));
    expect(error.message).toMatch(/custom\.json: link\.template: unknown field "slug"/);
    expect(error.message).toMatch(/custom\.json: title\.template: unknown field "titel" \(did you mean "title"\?\)/);
  });

  it("refuses a rule on a field no product has, deep inside all/any/not", async () => {
    const error = await refusal(
      withChannel({
        eligibility: {
          exclude: [
            { name: "ok", field: "brands.id", op: "eq", value: 3 },
            { all: [{ field: "brand", op: "eq", value: "X" }, { not: { field: "categoryid", op: "eq", value: 11 } }] },
          ],
          include: { field: "pricee", op: "gt", value: 1 },
        },
      }),
    );
    expect(error.message).toMatch(/custom\.json: eligibility\.exclude\[1\]\.all\[1\]\.not\.field: unknown field "categoryid" \(did you mean "categoryId"\?\)/);
    expect(error.message).toMatch(/custom\.json: eligibility\.include\.field: unknown field "pricee" \(did you mean "price"\?\)/);
    expect(error.message).not.toMatch(/brands\.id/);
  });

  it("accepts derived names, product paths (through lists and localized records) and every built-in layout", async () => {
    await accepted(
      withChannel(
        {
          template: "../my-layout",
          link: { template: "https://shop.example/{{seoName.nl}}/{{{publicPageUrl}}}" },
          title: { template: "{{brand}} {{name}} {{packageContent}}" },
          custom: { w: "{{weightWithUnit.unit}} {{attributes.anything.below}}" },
          eligibility: { exclude: [{ field: "photos.formats", op: "exists", value: true }, { field: "salePrice", op: "lt", value: 2 }] },
        },
        { "config/my-layout/layout.json": csvLayout("{{#each gtins}}{{this}}{{/each}}", "{{join categoryPath \" > \"}}", "{{custom.w}}", "{{fallbacks.title}}") },
      ),
    );
  });

  it("is refused by validate and by generate before any work (built CLI, exit 3)", async () => {
    const root = await writeTree(withChannel({ title: { template: "{{titel}}" } }));
    roots.push(root);
    const config = join(root, "config/pharmafeed.json");
    const validate = await runCli(["validate", "--config", config, "--no-credentials"]);
    expect(validate.code).toBe(3);
    expect(validate.stderr).toMatch(/title\.template: unknown field "titel" \(did you mean "title"\?\)/);
    const generate = await runCli(["generate", "--config", config], { env: { ...TEST_ENV, CATALOGUE_API_BASE_URL: "http://127.0.0.1:9" } });
    expect(generate.code).toBe(3);
    expect(generate.stderr).toMatch(/did you mean "title"/);
    expect(existsSync(join(root, "out"))).toBe(false);
  });
});
