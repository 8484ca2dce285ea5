import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../scripts/install-temporal.sh', import.meta.url));

/** What the installer did this time, and how long it took (a cached binary: nothing, and it says nothing). */
export interface TemporalInstall {
  /** built: `go install` from source; downloaded: the release archive; installed: another process's install, waited for. */
  action: 'built' | 'downloaded' | 'installed';
  ms: number;
}

/**
 * What the installer's messages (stderr) say it did: it is silent when the binary is at hand, and
 * names what it does otherwise (scripts/install-temporal.sh).
 */
export function installActionOf(messages: string): TemporalInstall['action'] | undefined {
  if (messages.trim() === '') return undefined;
  if (messages.includes('building the Temporal CLI')) return 'built';
  if (messages.includes('downloading')) return 'downloaded';
  return 'installed';
}

/**
 * Path of the pinned Temporal CLI; installs it into the per-user cache the first time, and says so
 * (`installed`: what it did and how long it took, the one-time setup a first `demo` waits for). The
 * installer's progress (stderr: what it builds, a heartbeat while `go install` runs) goes straight
 * on to this process's stderr, so the first `demo` says what it waits for instead of going silent.
 */
export async function temporalInstall(): Promise<{ path: string; installed?: TemporalInstall }> {
  const started = Date.now();
  const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let messages = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    messages = (messages + chunk.toString()).slice(-4000);
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), 30 * 60_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`installing the Temporal CLI failed (scripts/install-temporal.sh exit ${code}; its messages are above)`);
  const path = stdout.trim().split('\n').pop();
  if (!path) throw new Error('install-temporal.sh printed no binary path');
  const action = installActionOf(messages);
  return action === undefined ? { path } : { path, installed: { action, ms: Date.now() - started } };
}

/** Path of the pinned Temporal CLI (installed the first time; see temporalInstall). */
export async function temporalBinary(): Promise<string> {
  return (await temporalInstall()).path;
}
