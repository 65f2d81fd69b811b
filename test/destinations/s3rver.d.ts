// s3rver ships no types; what the tests use of it.
declare module "s3rver" {
  export default class S3rver {
    constructor(options: Record<string, unknown>);
    run(): Promise<unknown>;
    close(): Promise<unknown>;
  }
}
