import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start real servers on port 0 and stream thousands of products over
    // loopback; two cores are shared by the whole suite.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
