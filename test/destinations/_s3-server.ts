/**
 * An S3-compatible server (s3rver) over a local directory on 127.0.0.1 port 0,
 * with one bucket. Its credentials are s3rver's fixed test pair.
 */
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";

export const S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface S3Server {
  port: number;
  close(): Promise<void>;
}

export async function startS3(directory: string, bucket: string): Promise<S3Server> {
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  return { port: address.port, close: () => server.close() as Promise<void> };
}
