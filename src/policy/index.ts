/** The health policy table: classes of products, rows, which row decides, and the verdict. */
export { productClasses } from "./classes.js";
export { decidePolicy, deniedDetail, deniedRowKey, type PolicyCarry, type PolicyVerdict } from "./decide.js";
export { BUILTIN_RULES } from "./defaults.js";
export { type LegacySwitches, rulesInEffect } from "./legacy.js";
export { overdueRules } from "./check.js";
export { channelRules, mergeRules, type ChannelRules } from "./table.js";
export { MARKETPLACES, type Marketplace, PolicyRow, type PolicyRule, type ProductClass, certificationOf, isDay, ruleKey } from "./schema.js";
export { COUNTRIES, countryProblem } from "./countries.js";
export { readPolicyDir, readPolicyFile, rowsToRules, SHIPPED_POLICY_DIR, type PolicyProblem, whereWritten } from "./load.js";
export { type Loosening, loosenings } from "./lint.js";
