export * from "./common.js";
export * from "./media.js";
export * from "./product.js";
