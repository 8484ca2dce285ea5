import type { FaultKind } from './faults.ts';
import { emptyCounts } from './faults.ts';

export interface RequestLogEntry {
  method: string;
  path: string;
  query: string;
  status: number;
  cu: number;
}

export interface SimulatorStats {
  requests: number;
  /** CU of every request answered so far (a count, like requests: the log below is bounded). */
  cu: number;
  byStatus: Record<number, number>;
  /** The most recent requests (bounded, see LOG_LIMIT). */
  log: RequestLogEntry[];
  faultsInjected: Record<FaultKind, number>;
}

/** Only the latest entries are kept so long benchmarks don't grow memory without bound. */
export const LOG_LIMIT = 100_000;

export class StatsRecorder {
  private requests = 0;
  private cu = 0;
  private byStatus: Record<number, number> = {};
  private log: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    this.requests++;
    this.cu += entry.cu;
    this.byStatus[entry.status] = (this.byStatus[entry.status] ?? 0) + 1;
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT * 1.5) this.log = this.log.slice(-LOG_LIMIT);
  }

  snapshot(faults: Record<FaultKind, number>): SimulatorStats {
    return {
      requests: this.requests,
      cu: this.cu,
      byStatus: { ...this.byStatus },
      log: this.log.slice(-LOG_LIMIT),
      faultsInjected: { ...emptyCounts(), ...faults },
    };
  }

  reset(): void {
    this.requests = 0;
    this.cu = 0;
    this.byStatus = {};
    this.log = [];
  }
}
