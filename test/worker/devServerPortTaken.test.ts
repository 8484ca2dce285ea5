import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevServer, startupFailure } from '../../worker/devServer.ts';
import { temporalInstall } from '../../worker/temporalBinary.ts';

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

describe('embedded dev server whose internal service finds its port taken', () => {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-devserver-internal-'));
  const saved = process.env.TEMPORAL_CLI_PATH;
  afterAll(() => {
    if (saved === undefined) delete process.env.TEMPORAL_CLI_PATH;
    else process.env.TEMPORAL_CLI_PATH = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('the reason is read past the panic that follows it, and the server is launched again', async () => {
    const real = (await temporalInstall()).path;
    // What 1.5.1 prints when the port it picked for its history service is taken by the time it binds
    // (seen in CI): the reason at ERROR, then a nil-pointer panic whose trace runs far past 4000 characters.
    const frames = Array.from({ length: 120 }, (_, i) => `go.uber.org/fx.(*module).invoke(${i})\n\t/root/go/pkg/mod/go.uber.org/fx@v1.23.0/module.go:${i} +0x1a4`).join('\n');
    const once = join(dir, 'failed-once');
    const wrapper = join(dir, 'temporal');
    writeFileSync(wrapper, [
      '#!/usr/bin/env bash',
      `if [[ ! -e '${once}' ]]; then`,
      `  touch '${once}'`,
      `  echo 'time=2026-12-01T08:46:01.000 level=ERROR msg="Failed to start gRPC listener" service=history error="listen tcp 127.0.0.1:40123: bind: address already in use"' >&2`,
      `  cat >&2 <<'TRACE'\npanic: runtime error: invalid memory address or nil pointer dereference\n${frames}\nmain.main()\n\t/root/go/pkg/mod/github.com/temporalio/cli@v1.5.1/cmd/temporal/main.go:18 +0x96\nTRACE`,
      '  exit 2',
      'fi',
      `exec '${real}' "$@"`,
    ].join('\n'), { mode: 0o755 });
    process.env.TEMPORAL_CLI_PATH = wrapper;
    const server = new DevServer({ dataDir: join(dir, 'data'), headless: true });
    try {
      await server.start();
      expect(existsSync(once)).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('a start-up failure names the first error line, not the end of a trace', () => {
    const head = 'time=t level=ERROR msg="Failed to start ringpop listener" error="bind: address already in use"\npanic: boom\ngoroutine 1 [running]:\n';
    expect(startupFailure(head, '\tmain.go:18 +0x96\n')).toBe('time=t level=ERROR msg="Failed to start ringpop listener" error="bind: address already in use" ... main.go:18 +0x96');
    expect(startupFailure('', '')).toBe('(no output)');
  });
});
