import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevServer } from '../../worker/devServer.ts';

/** Binds a port on 127.0.0.1 the way another process would, so the dev server finds it taken. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  // Whoever connects (the start-up probe dials the port too) is hung up on, so close() can finish.
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('embedded dev server whose port is taken at start-up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-devserver-port-'));
  let held: { port: number; server: Server };
  beforeAll(async () => {
    held = await holdPort();
  });
  afterAll(async () => {
    await new Promise((resolve) => held.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a port it picked and found taken: launched again on fresh ports, and serves', async () => {
    const server = new DevServer({ dataDir: join(dir, 'picked'), headless: true });
    // What happens when another process binds the picked port between the pick and the server's bind.
    server.port = held.port;
    try {
      await server.launch();
      await server.ready();
      expect(server.port).not.toBe(held.port);
    } finally {
      await server.stop();
    }
  });

  it('a port the caller fixed: one error carrying the server\'s own reason, not retried elsewhere', async () => {
    const server = new DevServer({ dataDir: join(dir, 'fixed'), headless: true, port: held.port });
    await expect(server.start()).rejects.toThrow(/exited during start-up: .*address already in use/);
    expect(server.port).toBe(held.port);
  });
});
