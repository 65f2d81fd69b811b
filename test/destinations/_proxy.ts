/**
 * A TCP proxy on 127.0.0.1 port 0 in front of a real server, for faults the
 * server cannot make itself: the connection cut after some bytes of upload (the
 * client's bytes), a byte of the upload changed on the way, or a server that stops
 * answering (bytes held, never passed on).
 */
import { createServer, type AddressInfo, connect, type Socket } from "node:net";

export interface Proxy {
  port: number;
  /** Cut each connection once the client sent this many bytes through it (undefined: never). */
  cutAfterBytes: number | undefined;
  /** This many connections opened from now on are not cut (say, the first parts of a multipart upload). */
  spare: number;
  /** Change the byte at this offset of each connection's upload stream (undefined: none). */
  corruptAt: number | undefined;
  /** Hold every byte from now on: the server seems to hang. */
  stall: boolean;
  /** Connections cut so far. */
  cuts: number;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = {
    port: 0,
    cutAfterBytes: undefined,
    spare: 0,
    corruptAt: undefined,
    stall: false,
    cuts: 0,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    let sent = 0;
    let cut = false;
    const spared = proxy.spare > 0;
    if (spared) proxy.spare--;
    client.on("data", (chunk: Buffer) => {
      if (proxy.stall || cut) return;
      const limit = spared ? undefined : proxy.cutAfterBytes;
      if (limit !== undefined && sent + chunk.length >= limit) {
        // What reached the cut goes on, then both ends are gone at once, as when a cable is pulled.
        upstream.write(chunk.subarray(0, Math.max(0, limit - sent)));
        cut = true;
        proxy.cuts++;
        client.destroy();
        upstream.end();
        return;
      }
      const at = proxy.corruptAt;
      if (at !== undefined && at >= sent && at < sent + chunk.length) {
        chunk = Buffer.from(chunk);
        chunk.writeUInt8(chunk.readUInt8(at - sent) ^ 0xff, at - sent);
      }
      sent += chunk.length;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!proxy.stall) client.write(chunk);
    });
    for (const s of [client, upstream]) {
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.port = (server.address() as AddressInfo).port;
  return proxy;
}
