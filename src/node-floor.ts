/**
 * The oldest Node.js pharmafeed runs on (package.json `engines`, kept equal by a test).
 * cli.ts imports this module first, so that an older Node.js gets one line saying so
 * before yargs or a native module is loaded (they would fail with a stack trace that
 * names neither Node.js nor the fix). It is the CLI's start-up check, hence the exit.
 */
export const NODE_FLOOR = { major: 20, minor: 19 } as const;

/** The lines CI tests (scripts/test-lines.sh and the machine's own). */
export const TESTED_LINES = [20, 22, 24, 26] as const;

/** One line when `version` (e.g. "18.20.4") is older than the floor; undefined when it is fine. */
export function nodeFloorProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > NODE_FLOOR.major || (major === NODE_FLOOR.major && minor >= NODE_FLOOR.minor)) return undefined;
  return `Node.js ${version} is too old: pharmafeed needs ${NODE_FLOOR.major}.${NODE_FLOOR.minor} or later (tested on ${TESTED_LINES.join(", ")}); install a newer Node.js, then run \`npm ci\``;
}

const problem = nodeFloorProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`pharmafeed: ${problem}\n`);
  process.exit(1);
}
