import type { Command } from 'commander';
import { registerConfigCommand } from './config.ts';
import { registerDevServerCommand } from './devServer.ts';
import { registerWorkerCommand } from './worker.ts';

export function registerCommands(program: Command): void {
  registerConfigCommand(program);
  registerWorkerCommand(program);
  registerDevServerCommand(program);
}
