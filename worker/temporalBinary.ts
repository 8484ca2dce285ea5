import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../scripts/install-temporal.sh', import.meta.url));

/**
 * Path of the pinned Temporal CLI; installs it into the per-user cache the first time. The
 * installer's progress (stderr: what it builds, a heartbeat while `go install` runs) goes straight
 * to this process's stderr, so the first `demo` says what it waits for instead of going silent.
 */
export async function temporalBinary(): Promise<string> {
  const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 30 * 60_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`installing the Temporal CLI failed (scripts/install-temporal.sh exit ${code}; its messages are above)`);
  const path = stdout.trim().split('\n').pop();
  if (!path) throw new Error('install-temporal.sh printed no binary path');
  return path;
}
