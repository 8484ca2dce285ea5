import { spawn, type ChildProcess } from 'node:child_process';
import { cliArgv } from '../helpers/cliEntry.ts';

/**
 * A `glacier-etl worker` child process that can be SIGKILLed and started again, as a crash would.
 * Its stderr (pino JSON) is kept so a campaign can scan every log line it ever wrote.
 */
export class WorkerProcess {
  private child?: ChildProcess;
  kills = 0;
  starts = 0;
  /** How the last process ended, when it did (code or signal). */
  exit?: string;
  readonly logs: string[] = [];

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly configPath: string,
    /** Options of `worker`, e.g. ['--shard', 'a']. */
    private readonly workerArgs: string[] = [],
  ) {}

  get running(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  start(): void {
    if (this.running) return;
    const child = spawn(process.execPath, cliArgv(['--config', this.configPath, 'worker', ...this.workerArgs]), {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => this.logs.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => this.logs.push(d.toString()));
    child.once('exit', (code, signal) => (this.exit = signal ? `signal ${signal}` : `exit code ${code}`));
    this.child = child;
    this.exit = undefined;
    this.starts += 1;
  }

  /** SIGKILL: no shutdown hooks, no flush; whatever was in flight is lost to the process. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
  }

  /** Graceful stop (SIGTERM), used at the end of a campaign so the warehouse file is released. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
}
