import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../scripts/install-temporal.sh', import.meta.url));

/** Path of the pinned Temporal CLI; installs it into the per-user cache the first time. */
export async function temporalBinary(): Promise<string> {
  const { stdout } = await run('bash', [script], { maxBuffer: 1 << 20, timeout: 30 * 60_000 });
  const path = stdout.trim().split('\n').pop();
  if (!path) throw new Error('install-temporal.sh printed no binary path');
  return path;
}
