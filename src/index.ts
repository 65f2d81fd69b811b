/** The public SDK of pharmafeed (package entry point). */
export { PharmafeedError, isPharmafeedError, type ErrorCode } from "./errors.js";
export { VERSION } from "./version.js";
