import type { CommandModule } from "yargs";
import { PharmafeedError } from "../errors.js";

export const sandboxCommand: CommandModule = {
  command: "sandbox",
  describe: "(not implemented yet)",
  handler: () => {
    throw new PharmafeedError("INTERNAL", "sandbox is not implemented yet");
  },
};
