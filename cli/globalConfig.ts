import type { Command } from 'commander';
import type { ResolvedConfig } from '../worker/config.ts';

/**
 * The resolved config for a subcommand, from the global --config option and the environment.
 * The config module (zod, yaml) loads here, on first use, so `--help` does not pay for it.
 */
export async function configFor(command: Command): Promise<ResolvedConfig> {
  const root = command.parent?.parent ?? command.parent ?? command;
  const { config } = root.opts<{ config?: string }>();
  const { loadConfig } = await import('../worker/config.ts');
  return loadConfig(config);
}

/** An action that starts from the resolved config: `.action(withConfig(async (config, opts) => …))`. */
export function withConfig<O>(action: (config: ResolvedConfig, opts: O, command: Command) => Promise<void>): (opts: O, command: Command) => Promise<void> {
  return async (opts, command) => action(await configFor(command), opts, command);
}
