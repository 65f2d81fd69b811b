/** Constants the tests need, restated from the docs (not imported from the generator). */
/** "Now" of the generated catalogue: 2026-01-01T00:00:00Z. */
export const CATALOGUE_NOW_FOR_TESTS = 1767225600;
