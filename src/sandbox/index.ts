/**
 * The local Catalogue API v4 sandbox: a real HTTP server over a generated,
 * deterministic catalogue. See ./options.ts for the contract of startSandbox.
 */
export { startSandbox } from "./server/server.js";
export { createCatalogue, type Catalogue, type CatalogueOptions, type ProductRecord, type MediaRecord } from "./generate/catalogue.js";
export { HIDDEN, type ProductHidden, type MediaHidden } from "./generate/types.js";
export { API_ERROR, type Violation } from "./server/errors.js";
export { STREAM_CONTENT_TYPE } from "./server/stream.js";
export { DEMO_KEY, BASIC_KEY, SandboxOptions, FaultOptions, type SandboxHandle, type SandboxOptionsInput } from "./options.js";
