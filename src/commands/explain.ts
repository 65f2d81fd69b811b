/**
 * `pharmafeed explain <id | GTIN | CIP13 | words>`: what the last run did with a
 * product, per channel (or one), from the run's index (output/state/explain.sqlite);
 * an id or code the run never received is looked up in the catalogue (one request).
 */
import type { Argv, CommandModule } from "yargs";
import { loadConfig } from "../config/load.js";
import { PharmafeedError } from "../errors.js";
import { integerOption, SHOP_OPTION } from "./flags.js";
import { MAX_QUERY_CHARS, queryLength } from "../explain/query.js";

export interface ExplainArgs {
  query: string[];
  config: string;
  /** A config with shops: the shop (docs/shops.md). */
  shop?: string;
  output?: string;
  channel?: string;
  json: boolean;
  limit: number;
}

export const explainCommand: CommandModule<object, ExplainArgs> = {
  command: "explain <query..>",
  describe: "Why a product is (or is not) in each feed: id, GTIN/EAN of any width, CIP13, or words of its name",
  builder: (yargs) =>
    yargs
      .positional("query", { type: "string", array: true, demandOption: true, describe: "a product id, a GTIN/EAN/CIP13, or words of its name" })
      .option("config", { type: "string", default: "config/pharmafeed.json", describe: "main config file" })
      .option("shop", SHOP_OPTION)
      .option("output", { type: "string", describe: "output directory (default: from the config)" })
      .option("channel", { type: "string", describe: "only this channel (words are then looked for in its language)" })
      .option("json", { type: "boolean", default: false, describe: "print the answer as JSON" })
      .option("limit", integerOption("limit", { min: 1, what: "a count of products" }, { default: 20, describe: "products shown for words" })) as unknown as Argv<ExplainArgs>,
  handler: async (args) => {
    const query = args.query.join(" ");
    // As the status page's search: a name is never longer, and a query of thousands of words
    // took 26 s at 100k products (each word is a scan of the names).
    // As the status page's search (serve/status/search.ts), counted alike.
    if (queryLength(query) > MAX_QUERY_CHARS) {
      throw new PharmafeedError("USAGE", `the query is ${queryLength(query)} characters long; explain takes at most ${MAX_QUERY_CHARS} (an id, a code or a few words of a name)`);
    }
    const config = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), checkCredentials: false, notify: false });
    if (args.channel !== undefined && !config.channelNames.includes(args.channel)) {
      throw new PharmafeedError("USAGE", `no channel named "${args.channel}"; known: ${config.channelNames.join(", ")}`);
    }
    const [{ explain }, { renderExplain }, { ExplainIndex, explainFile }] = await Promise.all([
      import("../explain/explain.js"),
      import("../explain/render.js"),
      import("../explain/store.js"),
    ]);
    const outputDir = args.output ?? config.outputDir;
    const index = ExplainIndex.open(explainFile(outputDir));
    if (!index) throw new PharmafeedError("NO_INDEX", `no explain index in ${outputDir}: run \`pharmafeed generate\` first (it writes state/explain.sqlite)`);
    let close = async (): Promise<void> => {};
    try {
      const merchant = await import("../merchant/explain.js");
      // A Google channel's feed id (its id.template around {{id}}) finds the product too.
      const byFeedId = index.byId(query) ? undefined : merchant.catalogueIdFor(query, config.channels, (id) => index.byId(id) !== undefined);
      const answer = await explain({
        index,
        outputDir,
        channels: config.channels,
        query: byFeedId ?? query,
        ...(args.channel === undefined ? {} : { channel: args.channel }),
        limit: args.limit,
        sourceFilter: config.query.filter,
        fetchProduct: async (query) => {
          // Credentials only now: everything else works without them.
          const withSource = await loadConfig(args.config, { ...(args.shop === undefined ? {} : { shop: args.shop }), notify: false });
          const [{ createCatalogueClient }, { fetchProduct }] = await Promise.all([import("../catalogue/client.js"), import("../explain/catalogue.js")]);
          const client = createCatalogueClient(withSource.source!);
          close = () => client.close();
          return fetchProduct(client, query);
        },
      });
      if (byFeedId !== undefined) answer.query = query;
      // Google's verdicts, when a read-back kept some (src/merchant/): beside pharmafeed's own.
      merchant.attachGoogle(outputDir, answer, config.channels);
      process.stdout.write(args.json ? `${JSON.stringify(answer, null, 2)}\n` : renderExplain(answer));
    } finally {
      index.close();
      await close();
    }
  },
};
