import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './freePort.ts';
import { temporalInstall, type TemporalInstall } from './temporalBinary.ts';

export interface DevServerOptions {
  /** Directory for the server's SQLite file, so workflow state survives restarts. */
  dataDir: string;
  namespace?: string;
  /** Fixed ports; free ones are picked when omitted (and kept across restart()). */
  port?: number;
  uiPort?: number;
  /** Run without the web UI (tests). */
  headless?: boolean;
  startTimeoutMs?: number;
  /** More `start-dev` arguments (scripts/recordHistories.ts lowers the continue-as-new suggestion with a dynamic-config value). */
  extraArgs?: string[];
}

/**
 * Settings that cut the server's share of a backfill (bench/temporalShare.ts prints it):
 * - SQLite in WAL mode with synchronous=NORMAL: a history write appends to the log instead of
 *   journalling and syncing the database file, which halved the server's CPU per batch. A process
 *   crash loses nothing; a power cut can lose the last transactions, which the pipeline absorbs:
 *   the warehouse checkpoint is authoritative, so a replayed activity resumes where the rows end.
 * - eager activity execution: the activity a workflow task schedules comes back in the answer to
 *   that task, instead of through the matching service and an activity poll (the SDK asks for it;
 *   the server's default is off).
 */
const SPEED_ARGS = [
  '--sqlite-pragma', 'journal_mode=WAL',
  '--sqlite-pragma', 'synchronous=NORMAL',
  '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
];

/** The arguments of `temporal server start-dev` as the project runs it (no UI when uiPort is absent; bench:peer times the same process). */
export function startDevArgs(options: { dbFile: string; port: number; namespace?: string; uiPort?: number }): string[] {
  return [
    'server', 'start-dev',
    '--db-filename', options.dbFile,
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--namespace', options.namespace ?? 'default',
    '--log-level', 'error',
    '--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true',
    ...SPEED_ARGS,
    ...(options.uiPort === undefined ? ['--headless'] : ['--ui-port', String(options.uiPort)]),
  ];
}

/** Launches of one start when a picked port turns out taken (ready()). */
const START_ATTEMPTS = 3;

/** Characters kept of the start and of the end of the server's stderr. */
const STDERR_KEPT = 4000;

/**
 * The reason a server that exited at start-up gave, from its stderr: its first error line, and its
 * last line when that differs. An internal service of 1.5.1 that cannot bind its port logs the reason
 * at ERROR and goes on to panic, whose trace (deep in fx) would otherwise push the reason out of sight.
 */
export function startupFailure(head: string, tail: string): string {
  const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);
  const first = lines(head).find((line) => /level=ERROR|^panic:|^Error:|^fatal error:/.test(line)) ?? lines(head)[0] ?? '(no output)';
  const last = lines(tail).at(-1);
  return (last && last !== first ? `${first} ... ${last}` : first).slice(0, 600);
}

/**
 * The server exited at start-up because a port was bound by another process: one it was given, or
 * one it picked for an internal service (1.5.1 picks those itself, the way freePort does).
 */
class PortTakenError extends Error {
  constructor(message: string, readonly port: number | undefined) {
    super(message);
  }
}

/**
 * Manages one `temporal server start-dev` process from the pinned binary. Its state lives in a
 * SQLite file under the data directory, so stopping and starting again keeps every workflow.
 */
export class DevServer {
  private child?: ChildProcess;
  /** The start of the server's stderr (where its reason is) and its end (where a panic's trace ends). */
  private stderrHead = '';
  private stderrTail = '';
  port = 0;
  uiPort = 0;
  /** The one-time install of the Temporal CLI this server's first launch waited for (undefined: it was at hand). */
  installed?: TemporalInstall;

  constructor(private readonly options: DevServerOptions) {}

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get uiUrl(): string | undefined {
    return this.options.headless ? undefined : `http://127.0.0.1:${this.uiPort}`;
  }

  get dbFile(): string {
    return join(this.options.dataDir, 'temporal.sqlite');
  }

  /** Starts the server and waits until it serves (its namespace included). */
  async start(): Promise<this> {
    await this.launch();
    return this.ready();
  }

  /**
   * Spawns the server process without waiting for it to serve (ready() waits), so a caller can load
   * its own modules during the server's start-up (0.1-0.5 s before it serves; a new state file the longest).
   */
  async launch(): Promise<this> {
    if (this.child) throw new Error('dev server already running');
    mkdirSync(this.options.dataDir, { recursive: true });
    const { path: binary, installed } = await temporalInstall();
    this.installed ??= installed;
    this.port ||= this.options.port ?? (await freePort());
    this.uiPort ||= this.options.uiPort ?? (await freePort());
    const args = startDevArgs({ dbFile: this.dbFile, port: this.port, namespace: this.options.namespace, uiPort: this.options.headless ? undefined : this.uiPort }).concat(this.options.extraArgs ?? []);
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (this.stderrHead.length < STDERR_KEPT) this.stderrHead = (this.stderrHead + text).slice(0, STDERR_KEPT);
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEPT);
    });
    // 'close', not 'exit': it comes after the stderr pipe is drained, so a start-up failure reports
    // the server's own last line instead of an empty tail.
    child.once('close', () => {
      if (this.child === child) this.child = undefined;
    });
    return this;
  }

  /**
   * Waits until the launched server answers; stops it if it does not within startTimeoutMs (default
   * 60 s). A port picked here can be taken by another process between the pick and the server's bind
   * (tests start servers side by side, and a restarting one takes its old port back): the server then
   * exits at once saying so, and it is launched again on fresh ports, up to START_ATTEMPTS times. So
   * it is when a port the server picked for an internal service was taken (it logs that and panics).
   * Ports the caller fixed are never changed, and one of them taken is an error at once.
   */
  async ready(): Promise<this> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.waitUntilServing(this.options.startTimeoutMs ?? 60_000);
        return this;
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt >= START_ATTEMPTS) throw error;
        const fixed = [this.options.port, this.options.uiPort].filter((port) => port !== undefined);
        // A port the caller fixed stays, and its being taken is the caller's to solve.
        if (error.port !== undefined ? fixed.includes(error.port) : fixed.length > 0) throw error;
        if (this.options.port === undefined) this.port = 0;
        if (this.options.uiPort === undefined) this.uiPort = 0;
        this.stderrHead = this.stderrTail = '';
        await this.launch();
      }
    }
  }

  private async waitUntilServing(timeoutMs: number): Promise<void> {
    // The client loads here, not with this module: the CLI launches the server before it loads Temporal's SDK.
    const { Connection } = await import('@temporalio/client');
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      if (!this.child) {
        const message = `temporal dev server exited during start-up: ${startupFailure(this.stderrHead, this.stderrTail)}`;
        const stderr = `${this.stderrHead}\n${this.stderrTail}`;
        if (!/address already in use/.test(stderr)) throw new Error(message);
        const port = /:(\d+): bind: address already in use/.exec(stderr)?.[1];
        throw new PortTakenError(message, port === undefined ? undefined : Number(port));
      }
      // The port first: a gRPC connect that is refused waits out its whole timeout (the channel's
      // reconnect backoff), which held every start to about 1.2 s while the server served at 0.5.
      if (!(await portOpen(this.port))) {
        lastError = new Error(`nothing accepts connections on port ${this.port}`);
        await new Promise((r) => setTimeout(r, 25));
        continue;
      }
      try {
        const connection = await Connection.connect({ address: this.address, connectTimeout: 1000 });
        try {
          await connection.workflowService.getSystemInfo({});
          await connection.workflowService.describeNamespace({ namespace: this.options.namespace ?? 'default' });
          return;
        } finally {
          await connection.close();
        }
      } catch (error) {
        lastError = error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await this.stop();
    throw new Error(`temporal dev server did not answer on ${this.address} within ${timeoutMs} ms: ${String(lastError)}`);
  }

  /** Stops the process (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) {
      this.child = undefined;
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
  }

  /**
   * Kills the process without a clean shutdown: crash tests, and the CLI's embedded session once its
   * work is done (its state is then as safe as after a crash, which the next start recovers).
   */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

/** Whether something accepts TCP connections on the loopback port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
