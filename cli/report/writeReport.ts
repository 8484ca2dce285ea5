import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { VerifyFinding } from '../../activities/ports.ts';
import { loadReportData, type QueryFn } from './reportData.ts';
import { renderReport } from './renderReport.ts';

/**
 * Writes text to `path` atomically: a temporary file in the same directory, flushed, then renamed
 * over the target, so a reader (or a browser reload) never sees half a report.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Builds the report from a query function and writes it; returns the bytes written. */
export async function writeReport(query: QueryFn, out: string, options: { source: string; verifyFindings?: VerifyFinding[] }): Promise<number> {
  const text = renderReport(await loadReportData(query, options));
  writeFileAtomic(out, text);
  return Buffer.byteLength(text);
}

export class WarehouseBusyError extends Error {
  override name = 'WarehouseBusyError';
}

/** A read-only connection to a warehouse file; throws WarehouseBusyError when a worker holds it. */
export async function openReadOnly(file: string): Promise<{ query: QueryFn; close(): void }> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  } catch (error) {
    if (/lock/i.test((error as Error).message)) throw new WarehouseBusyError(`${file} is held by a running worker (DuckDB allows one writing process)`);
    throw error;
  }
  const connection = await instance.connect();
  return {
    query: async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[],
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
