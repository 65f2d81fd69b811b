/**
 * What pharmafeed reads of the Merchant API v1 (REST reference: products_v1, accounts_v1,
 * datasources_v1, quota_v1). Not strict: Google adds fields; only these are used.
 */
import { z } from "zod";

const strings = z.array(z.string()).default([]);

export const DestinationStatus = z.object({
  reportingContext: z.string().default("SHOPPING_ADS"),
  approvedCountries: strings,
  pendingCountries: strings,
  disapprovedCountries: strings,
});

export const ItemLevelIssue = z.object({
  code: z.string().default(""),
  /** NOT_IMPACTED, DEMOTED or DISAPPROVED. */
  severity: z.string().default("SEVERITY_UNSPECIFIED"),
  resolution: z.string().optional(),
  attribute: z.string().optional(),
  reportingContext: z.string().optional(),
  description: z.string().optional(),
  detail: z.string().optional(),
  documentation: z.string().optional(),
  applicableCountries: strings,
});
export type ItemLevelIssue = z.infer<typeof ItemLevelIssue>;

export const ProductStatus = z.object({
  destinationStatuses: z.array(DestinationStatus).default([]),
  itemLevelIssues: z.array(ItemLevelIssue).default([]),
  creationDate: z.string().optional(),
  lastUpdateDate: z.string().optional(),
  googleExpirationDate: z.string().optional(),
});
export type ProductStatus = z.infer<typeof ProductStatus>;

export const Product = z.object({
  name: z.string(),
  offerId: z.string().min(1),
  contentLanguage: z.string(),
  feedLabel: z.string(),
  dataSource: z.string().optional(),
  productStatus: ProductStatus.optional(),
});
export type Product = z.infer<typeof Product>;

export const ProductsPage = z.object({ products: z.array(z.unknown()).default([]), nextPageToken: z.string().optional() });

export const AccountIssue = z.object({
  name: z.string().default(""),
  title: z.string().default(""),
  /** CRITICAL, ERROR or SUGGESTION. */
  severity: z.string().default("SEVERITY_UNSPECIFIED"),
  detail: z.string().optional(),
  documentationUri: z.string().optional(),
});
export type AccountIssue = z.infer<typeof AccountIssue>;
export const AccountIssuesPage = z.object({ accountIssues: z.array(AccountIssue).default([]), nextPageToken: z.string().optional() });

/** One entry of a default rule: the primary source itself (`self`) or a supplemental one, by name. */
export const DataSourceReference = z.object({ self: z.boolean().optional(), supplementalDataSourceName: z.string().optional(), primaryDataSourceName: z.string().optional() });
export type DataSourceReference = z.infer<typeof DataSourceReference>;

export const PrimaryProductDataSource = z.object({
  /** Both unset: the source takes products of any feed label and language. */
  feedLabel: z.string().optional(),
  contentLanguage: z.string().optional(),
  /** Google takes each attribute from the first source of this list that has it. */
  defaultRule: z.object({ takeFromDataSources: z.array(DataSourceReference).default([]) }).optional(),
});

export const DataSource = z.object({
  name: z.string(),
  dataSourceId: z.string().optional(),
  displayName: z.string().default(""),
  primaryProductDataSource: PrimaryProductDataSource.optional(),
  supplementalProductDataSource: z.object({ feedLabel: z.string().optional(), contentLanguage: z.string().optional() }).optional(),
  input: z.string().optional(),
});
export type DataSource = z.infer<typeof DataSource>;
export const DataSourcesPage = z.object({ dataSources: z.array(DataSource).default([]), nextPageToken: z.string().optional() });

const int64 = z.union([z.string(), z.number()]).transform(Number);
export const QuotaGroup = z.object({
  name: z.string().default(""),
  quotaUsage: int64.default(0),
  quotaLimit: int64.default(0),
  quotaMinuteLimit: int64.default(0),
  methodDetails: z.array(z.object({ method: z.string().default(""), subapi: z.string().optional(), path: z.string().optional() })).default([]),
});
export type QuotaGroup = z.infer<typeof QuotaGroup>;
export const QuotasPage = z.object({ quotaGroups: z.array(QuotaGroup).default([]), nextPageToken: z.string().optional() });

/** Money in the API: micros as an int64 string. */
export const Price = z.object({ amountMicros: z.string(), currencyCode: z.string() });
export type Price = z.infer<typeof Price>;

/** What a supplemental push sends: only the attributes that change within a day. */
export const PushAttributes = z.object({
  price: Price.optional(),
  salePrice: Price.optional(),
  /** v1 enum: IN_STOCK, OUT_OF_STOCK, PREORDER, BACKORDER. */
  availability: z.string().optional(),
});
export type PushAttributes = z.infer<typeof PushAttributes>;
