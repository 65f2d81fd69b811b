/** Destination kinds by name; the config's `kind` picks the factory. */
import { createFtp } from "./ftp.js";
import { createS3 } from "./s3.js";
import type { DestinationConfig } from "./settings.js";
import { createSftp } from "./sftp.js";
import type { Driver } from "./types.js";

export function createDriver(config: DestinationConfig): Driver {
  switch (config.kind) {
    case "s3":
      return createS3(config);
    case "sftp":
      return createSftp(config);
    case "ftp":
      return createFtp(config);
  }
}
