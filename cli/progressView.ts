import cliProgress from 'cli-progress';
import type { PipelineStatus } from '../workflows/pipeline.ts';
import type { Logger } from '../worker/logger.ts';

/**
 * Shows pipeline progress: one bar per stream on a terminal (cli-progress, so redraws and
 * terminal quirks are handled by a maintained library), plain structured log lines otherwise.
 */
export interface ProgressView {
  /** How often the view shows anything new: the pipeline's status is not asked for more often. */
  readonly intervalMs: number;
  update(status: PipelineStatus): void;
  stop(): void;
}

interface StreamTotals {
  done: number;
  total: number;
  rows: number;
  failed: number;
}

function totalsByStream(status: PipelineStatus): Map<string, StreamTotals> {
  const totals = new Map<string, StreamTotals>();
  for (const p of status.partitions) {
    const t = totals.get(p.stream) ?? { done: 0, total: 0, rows: 0, failed: 0 };
    t.total += 1;
    t.rows += p.rows;
    if (p.state === 'done' || p.state === 'skipped') t.done += 1;
    if (p.state === 'failed') t.failed += 1;
    totals.set(p.stream, t);
  }
  return totals;
}

/**
 * A plain log's progress line comes every 5 s. The status behind it costs queries: the pipeline's
 * and each running partition's, each a round trip through the dev server and the worker's workflow
 * thread, so they are asked for as often as a line is written, not every second.
 */
const PLAIN_INTERVAL_MS = 5000;

export function createProgressView(logger: Logger, interactive = Boolean(process.stderr.isTTY)): ProgressView {
  if (!interactive) {
    let last = 0;
    return {
      intervalMs: PLAIN_INTERVAL_MS,
      update(status) {
        if (Date.now() - last < PLAIN_INTERVAL_MS - 100 && status.phase !== 'done') return;
        last = Date.now();
        const done = status.partitions.filter((p) => p.state === 'done').length;
        const rows = status.partitions.reduce((n, p) => n + p.rows, 0);
        logger.info({ phase: status.phase, partitions: status.partitions.length, done, rows }, 'progress');
      },
      stop() {},
    };
  }
  const multibar = new cliProgress.MultiBar(
    { format: ' {stream} |{bar}| {value}/{total} partitions | {rows} rows {failed}', hideCursor: true, clearOnComplete: false, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  return {
    intervalMs: 1000,
    update(status) {
      for (const [stream, t] of totalsByStream(status)) {
        const payload = { stream: stream.padEnd(26), rows: t.rows, failed: t.failed ? `| ${t.failed} failed` : '' };
        const bar = bars.get(stream) ?? multibar.create(t.total, 0, payload);
        bars.set(stream, bar);
        bar.setTotal(t.total);
        bar.update(t.done, payload);
      }
    },
    stop() {
      multibar.stop();
    },
  };
}
