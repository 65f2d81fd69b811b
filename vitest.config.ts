import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start real servers on port 0 and stream thousands of products over
    // loopback; two cores are shared by the whole suite. Tests wait on events, not
    // on time budgets: these timeouts only stop a test that hangs, and are far above
    // what a test takes on a machine at load 20 (a CLI that exits at once takes 15 s
    // there, an e2e test with three runs over two minutes).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // vitest's default is one fork less than the cores: one fork on these 2-core machines, so the
    // files ran one after another (842 s). Most of a file's time is spent waiting on the CLI it
    // spawned, a server or the disk, so three files at once fill the two cores.
    maxWorkers: 3,
  },
});
