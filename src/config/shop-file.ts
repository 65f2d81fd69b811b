/**
 * A shop file (docs/shops.md): what is a shop's own when one config runs many shops from one
 * catalogue read. Identity, offers, channels (shared channel files, each maybe overridden),
 * destinations, the status page's access, alerts and their language. The catalogue source, the
 * reference data and the health policy stay the main file's, for every shop.
 */
import { z } from "zod";
import { Destinations } from "../destinations/settings.js";
import { ALERT_LANGUAGES } from "../notify/alert-words.js";
import { NotifySettings } from "../notify/settings.js";
import { MainConfig, ShopName, StatusCredentials } from "./schema.js";

/** A channel file as it is, or with keys of the shop's own merged over it (`{"file": ..., "link": {...}}`). */
export const ShopChannel = z.union([
  z.string().min(1),
  z
    .object({ file: z.string().min(1) })
    .catchall(z.unknown())
    .refine((entry) => !("name" in entry), { message: "a channel keeps its name across shops (the shop's folder tells them apart)", path: ["name"] }),
]);
export type ShopChannel = z.infer<typeof ShopChannel>;

export const ShopFile = z
  .object({
    /** The shop's key; default: the file's name without `.json`. */
    name: ShopName.optional(),
    shop: MainConfig.shape.shop.unwrap(),
    /** The language of its alerts (unless its notify section says one) and of its status page by default. */
    language: z.enum(ALERT_LANGUAGES).optional(),
    output: z
      .object({
        /** Where the marketplaces reach this shop's files; default: the main file's publicBaseUrl + `/<name>`. */
        publicBaseUrl: z.url().optional(),
      })
      .strict()
      .optional(),
    offers: MainConfig.shape.offers,
    /** Channel files (relative to this file), each maybe with overrides; default: the main file's channels. */
    channels: z.array(ShopChannel).min(1).optional(),
    /** Replaces the main file's destinations for this shop. */
    destinations: Destinations.optional(),
    /** This shop's status page (/<name>/): its own credentials; none: the page is not served. */
    serve: z.object({ status: StatusCredentials.optional() }).strict().optional(),
    /** This shop's alerts; default: the main file's notify section. */
    notify: NotifySettings.optional(),
  })
  .strict();
export type ShopFile = z.infer<typeof ShopFile>;
