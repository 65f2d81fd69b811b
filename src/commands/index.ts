import type { CommandModule } from "yargs";
import { demoCommand } from "./demo.js";
import { diffCommand } from "./diff.js";
import { policyCommand } from "./policy.js";
import { rollbackCommand } from "./rollback.js";
import { explainCommand } from "./explain.js";
import { previewCommand } from "./preview.js";
import { pushCommand } from "./push.js";
import { fetchCommand } from "./fetch.js";
import { generateCommand } from "./generate.js";
import { merchantCommand } from "./merchant.js";
import { sandboxCommand } from "./sandbox.js";
import { serveCommand } from "./serve.js";
import { validateCommand } from "./validate.js";

/**
 * Every CLI command, one module per file. A command module holds its options and
 * imports its work (pipeline, sandbox, server) only when it runs: loading all of
 * them made every command start with ~25 MB more and ~180 ms later, generate
 * included, whose main thread carried the sandbox's and the server's code all run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [generateCommand, validateCommand, fetchCommand, sandboxCommand, demoCommand, serveCommand, explainCommand, previewCommand, merchantCommand, pushCommand, diffCommand, rollbackCommand, policyCommand];
