/**
 * Destination kinds by name; the config's `kind` picks the factory. Each kind's
 * module (and its client library: the AWS SDK alone is ~20 MB of code) is loaded
 * only when a destination of that kind is pushed to, so runs without destinations
 * start as fast and small as before.
 */
import type { DestinationConfig } from "./settings.js";
import type { Driver, DriverContext } from "./types.js";

export async function createDriver(config: DestinationConfig, context: DriverContext): Promise<Driver> {
  switch (config.kind) {
    case "s3":
      return (await import("./s3.js")).createS3(config, context);
    case "sftp":
      return (await import("./sftp.js")).createSftp(config, context);
    case "ftp":
      return (await import("./ftp.js")).createFtp(config, context);
  }
}
