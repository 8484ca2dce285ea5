import { connect, createServer, type Socket } from 'node:net';

/**
 * Asks the kernel for a free loopback port and keeps the kernel from handing it to anyone else who
 * asks for "any port" in the next minute: before the listener closes, a connection to it is closed
 * from the listening side, which leaves that side in TIME_WAIT (60 s on Linux). A later bind(0)
 * skips a port in TIME_WAIT; an explicit bind to it (SO_REUSEADDR, which Node and Go set) still
 * succeeds. Without this, a Temporal dev server started side by side could pick the same port for
 * one of its internal services (it asks the kernel the same way) and die at start-up.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    let client: Socket | undefined;
    const server = createServer((accepted) => {
      // The listening side closes first: it is the side that waits out TIME_WAIT.
      accepted.destroy();
      client?.destroy();
      server.close(() => resolve(port));
    });
    let port = 0;
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      client = connect(port, '127.0.0.1');
      client.on('error', () => undefined);
    });
  });
}
