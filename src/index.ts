/**
 * The public SDK of pharmafeed (package entry point): the Catalogue API v4
 * client, its options, wire schemas and types, filter and sorting builders.
 */
export { PharmafeedError, isPharmafeedError, ERROR_CODES, type ErrorCode, type ErrorContext } from "./errors.js";
export { VERSION } from "./version.js";
export * from "./catalogue/index.js";
