/**
 * A push in a process of its own, for a test to kill: argv[2] is JSON { jobs, outputDir }.
 * Says "started" on stdout once it runs; the test kills it (SIGKILL) mid-upload.
 */
import { pushChannels, type PushJob } from "../../src/destinations/push.js";
import { DestinationConfig } from "../../src/destinations/settings.js";
import { silentLogger } from "../../src/log.js";

const { jobs, outputDir } = JSON.parse(process.argv[2]!) as { jobs: PushJob[]; outputDir: string };
const parsed = jobs.map((job) => ({ ...job, destinations: job.destinations.map((d) => DestinationConfig.parse(d)) }));
process.stdout.write("started\n");
await pushChannels(parsed, { logger: silentLogger, outputDir });
