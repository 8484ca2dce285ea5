import type { Command } from 'commander';
import { parsePort } from './parsers.ts';

/**
 * A command that serves until stopped (dev-server, simulator): its description says how to stop it,
 * and each of its ports defaults to a free one.
 */
export function serveCommand(program: Command, name: string, description: string, ports: [flag: string, what: string][]): Command {
  const command = program.command(name).description(`${description} (Ctrl-C stops it)`);
  for (const [flag, what] of ports) command.option(`${flag} <port>`, `${what} port (default: a free port)`, parsePort);
  return command;
}

/** Resolves on Ctrl-C or a polite kill: how a serving command waits before it closes what it started. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
