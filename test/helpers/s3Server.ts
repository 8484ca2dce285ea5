/**
 * An S3 server for the lake's object-storage tests: moto 5.2.5 (PyPI) in a Python venv in the
 * per-user cache, started on a free port of 127.0.0.1, with one bucket. Without python3 the tests say
 * so in one line and skip. `npx tsx test/helpers/s3Server.ts --install` (.ci/run) makes the venv.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { extensionDirectory } from '../../activities/warehouse/extensions.ts';
import { freePort } from '../../worker/freePort.ts';

const MOTO = '5.2.5';
const venv = () => join(extensionDirectory(), '..', `moto-${MOTO}`);
const server = () => join(venv(), 'bin', 'moto_server');

/** Why the S3 tests cannot run here (no python3), or undefined once moto is installed. */
export function ensureMoto(): string | undefined {
  if (existsSync(server())) return undefined;
  const python = spawnSync('python3', ['--version']);
  if (python.status !== 0) return 'no python3 on PATH: the S3 lake test needs it for moto (an S3 server)';
  for (const args of [['python3', '-m', 'venv', venv()], [join(venv(), 'bin', 'pip'), 'install', '--quiet', `moto[server]==${MOTO}`]]) {
    const r = spawnSync(args[0], args.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status})`);
  }
  return undefined;
}

/** A free TCP port of 127.0.0.1 (the Iceberg catalog server takes one too). */
export interface S3Server {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Starts moto and creates `bucket` (path-style, no TLS; any key pair is accepted). */
export async function startS3(bucket = 'glacier-lake'): Promise<S3Server> {
  const port = await freePort();
  const child: ChildProcess = spawn(server(), ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`http://${endpoint}/${bucket}`, { method: 'PUT' });
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`moto did not answer on ${endpoint}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { endpoint, bucket, stop: async () => void (child.kill('SIGTERM'), await new Promise((r) => child.once('close', r))) };
}

if (process.argv.includes('--install') && process.argv[1]?.endsWith('s3Server.ts')) {
  const missing = ensureMoto();
  console.log(missing ?? `moto ${MOTO} in ${venv()}`);
}
