import type { CommandModule } from "yargs";
import { PharmafeedError } from "../errors.js";

export const fetchCommand: CommandModule = {
  command: "fetch",
  describe: "(not implemented yet)",
  handler: () => {
    throw new PharmafeedError("INTERNAL", "fetch is not implemented yet");
  },
};
