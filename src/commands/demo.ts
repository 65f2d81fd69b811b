import type { CommandModule } from "yargs";
import { PharmafeedError } from "../errors.js";

export const demoCommand: CommandModule = {
  command: "demo",
  describe: "(not implemented yet)",
  handler: () => {
    throw new PharmafeedError("INTERNAL", "demo is not implemented yet");
  },
};
