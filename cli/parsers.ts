import type { Command } from 'commander';
import type { StreamName } from '../common/streamNames.ts';
import { InvalidArgumentError } from 'commander';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) throw new InvalidArgumentError(`expected a port 1-65535, got "${value}"`);
  return n;
}

/** A whole number of at least `min` (safe integer, digits only), named in the error as `expected`. */
const integerAtLeast =
  (min: number, expected: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected ${expected}, got "${value}"`);
    return n;
  };

export const parsePositiveInt = integerAtLeast(1, 'a positive integer');
export const parseNonNegativeInt = integerAtLeast(0, 'a whole number (0 or more)');

/** --streams: a comma-separated list; the names are checked against the catalog before the command runs (checkStreams). */
export function parseStreams(value: string): StreamName[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('expected a comma-separated list of stream names');
  return names;
}

/**
 * Before a command given --streams runs: every name must be a stream of the catalog. The catalog
 * loads here, not at start, so `--help` and commands without --streams never pay for it.
 */
export async function checkStreams(command: Command): Promise<void> {
  const names = (command.opts() as { streams?: StreamName[] }).streams;
  if (!names) return;
  const { STREAM_NAMES } = await import('../activities/streams/catalog.ts');
  const unknown = names.find((name) => !STREAM_NAMES.includes(name));
  if (unknown !== undefined) command.error(`error: option '--streams <list>' argument '${names.join(',')}' is invalid. unknown stream "${unknown}" (streams: ${STREAM_NAMES.join(', ')})`, { exitCode: 2, code: 'commander.invalidArgument' });
}

/**
 * Parses an option's text in the action, for values whose vocabulary lives in a module only the
 * action loads (the simulator's sizes, tiers and fault kinds): a bad value fails as a parser given
 * at registration would, with commander's one line naming the option, and a usage exit code.
 */
export function parseInAction<T>(command: Command, option: string, text: string, parse: (text: string) => T): T {
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    const flags = command.options.find((o) => o.attributeName() === option)?.flags ?? option;
    command.error(`error: option '${flags}' argument '${text}' is invalid. ${error.message}`, { exitCode: error.exitCode, code: error.code });
  }
}
