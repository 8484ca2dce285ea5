import type { Command } from 'commander';
import { loadConfig, type ResolvedConfig } from '../worker/config.ts';

/** The resolved config for a subcommand, from the global --config option and the environment. */
export function configFor(command: Command): ResolvedConfig {
  const root = command.parent?.parent ?? command.parent ?? command;
  const { config } = root.opts<{ config?: string }>();
  return loadConfig(config);
}
