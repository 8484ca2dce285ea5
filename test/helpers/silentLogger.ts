import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../worker/logger.ts';

/** A real pino logger whose output is captured in memory (for assertions on log content). */
export function capturedLogger(level = 'debug'): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ level, destination: sink }), lines: () => chunks.join('') };
}
