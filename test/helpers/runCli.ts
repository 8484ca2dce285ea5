import { spawn } from 'node:child_process';
import { cliArgv } from './cliEntry.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (from its TypeScript sources, see cliEntry.ts) in a child process. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return runNode(cliArgv(args), options);
}

/** Runs `node <argv>` in a child process (killed after timeoutMs) and collects its output; another build's CLI too. */
export function runNode(argv: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
