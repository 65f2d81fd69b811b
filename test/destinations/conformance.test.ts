/**
 * The conformance suite (_conformance.ts) against the in-process test servers:
 * s3rver (S3), an ssh2 SFTP server, which offers no extension (the client's
 * delete-and-rename road), and ftp-srv. moto and OpenSSH's sftp-server have
 * their own files (s3-moto.test.ts, sftp-openssh.test.ts), so they run beside it.
 */
import { conformance } from "./_conformance.js";

conformance("s3rver");
conformance("ssh2");
conformance("ftp-srv");
