import { join } from 'node:path';
import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';
import { parsePort } from '../parsers.ts';
import { untilStopped } from '../untilStopped.ts';

export function registerDevServerCommand(program: Command): void {
  program
    .command('dev-server')
    .description('run the pinned Temporal dev server with its state in <dataDir>/temporal (Ctrl-C stops it)')
    .option('--port <port>', 'gRPC port (default: a free port)', parsePort)
    .option('--ui-port <port>', 'web UI port (default: a free port)', parsePort)
    .action(async (opts: { port?: number; uiPort?: number }, command: Command) => {
      const config = await configFor(command);
      const { DevServer } = await import('../../worker/devServer.ts');
      const server = await new DevServer({ dataDir: join(config.dataDir, 'temporal'), port: opts.port, uiPort: opts.uiPort }).start();
      process.stdout.write(`temporal dev server on ${server.address}, UI ${server.uiUrl}\n`);
      await untilStopped();
      await server.stop();
    });
}
