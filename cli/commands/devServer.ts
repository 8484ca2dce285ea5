import { join } from 'node:path';
import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';
import { serveCommand, untilStopped } from '../serveCommand.ts';

export function registerDevServerCommand(program: Command): void {
  serveCommand(program, 'dev-server', 'run the pinned Temporal dev server with its state in <dataDir>/temporal', [
    ['--port', 'gRPC'],
    ['--ui-port', 'web UI'],
  ]).action(async (opts: { port?: number; uiPort?: number }, command: Command) => {
    const config = await configFor(command);
    const { DevServer } = await import('../../worker/devServer.ts');
    const server = await new DevServer({ dataDir: join(config.dataDir, 'temporal'), port: opts.port, uiPort: opts.uiPort }).start();
    process.stdout.write(`temporal dev server on ${server.address}, UI ${server.uiUrl}\n`);
    await untilStopped();
    await server.stop();
  });
}
