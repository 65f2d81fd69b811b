import type { CommandModule } from "yargs";
import { demoCommand } from "./demo.js";
import { fetchCommand } from "./fetch.js";
import { generateCommand } from "./generate.js";
import { sandboxCommand } from "./sandbox.js";
import { serveCommand } from "./serve.js";
import { validateCommand } from "./validate.js";

/** Every CLI command, one module per file. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [generateCommand, validateCommand, fetchCommand, sandboxCommand, demoCommand, serveCommand];
