export * from "./activity.js";
export * from "./common.js";
export * from "./envelopes.js";
export * from "./media.js";
export * from "./product.js";
export * from "./reference.js";
export * from "./requests.js";
