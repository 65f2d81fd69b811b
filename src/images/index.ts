/**
 * The image pipeline: per-channel `images.process` (download, fit, flatten,
 * convert, store under output/images/ with a cache across runs). See
 * pipeline.ts for the data flow.
 */
export { ImagePipeline, type ChannelImages, type ImageOutcome, type ImagePipelineOptions, type ImageStats } from "./pipeline.js";
export { ImageProcessSettings, OUTPUT_FORMATS, settingsId, type ImageProcessSettingsInput } from "./settings.js";
export { ImageRunOptions, type ImageRunOptionsInput } from "./options.js";
export { imageName, publicImageUrl } from "./store.js";
export { IMAGE_NAME, INDEX_FILE } from "./cache.js";
export { checkImageConfig, imageConfigProblems } from "./check.js";
