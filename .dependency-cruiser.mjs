/**
 * The layers of src/, bottom first: a module may import at run time only from its own folder
 * and from layers below its own (type-only imports are erased by the compiler and allowed).
 * Folders in one layer are peers and may not import each other. `npm run lint` runs this
 * (depcruise) beside ESLint; docs/development.md explains the order.
 *
 * A new capability gets a folder and a place in this list; config/ assembles the settings of
 * everything below it, pipeline/ runs them, commands/ and cli.ts wire them.
 */
const LAYERS = [
  ["errors.ts", "format.ts", "version.ts", "node-floor.ts"],
  ["core", "log.ts", "progress.ts"],
  ["catalogue"],
  ["store"],
  ["images", "policy"],
  ["mapping"],
  ["writers"],
  ["presets"],
  ["publish"],
  ["snapshot", "rowcache", "history"],
  ["notify"],
  ["destinations"],
  ["merchant"],
  ["explain"],
  ["serve"],
  ["config"],
  ["pipeline", "sandbox", "runwatch"],
  ["preview"],
  ["commands"],
  ["cli.ts", "index.ts"],
];

/** A folder or a root file of src/ as a path pattern. */
const pattern = (name) => (name.endsWith(".ts") ? `^src/${name.replace(".", "\\.")}$` : `^src/${name}/`);
const RUN_TIME = { dependencyTypesNot: ["type-only"] };

const known = LAYERS.flat();
const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return layer.map((name) => ({
    name: `layer-${name}`,
    comment: `${name} may import only from its own folder and the layers below it (.dependency-cruiser.mjs)`,
    severity: "error",
    from: { path: pattern(name) },
    to: { path: [...above, ...layer.filter((peer) => peer !== name)].map(pattern), ...RUN_TIME },
  }));
});

export default {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      comment: "a run-time import cycle between modules",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true, viaOnly: RUN_TIME },
    },
    {
      name: "not-in-a-layer",
      comment: "every folder and root file of src/ has a place in LAYERS",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/", pathNot: known.map(pattern) },
    },
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
