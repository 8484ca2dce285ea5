import { STREAM_NAMES, type StreamName } from '../common/streamNames.ts';
import { InvalidArgumentError, type Command } from 'commander';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535) throw new InvalidArgumentError(`expected a port 1-65535, got "${value}"`);
  return n;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

export function parseStreams(value: string): StreamName[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('expected a comma-separated list of stream names');
  for (const name of names) {
    if (!(STREAM_NAMES as readonly string[]).includes(name)) {
      throw new InvalidArgumentError(`unknown stream "${name}" (streams: ${STREAM_NAMES.join(', ')})`);
    }
  }
  return names as StreamName[];
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
