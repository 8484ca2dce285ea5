import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ReportData } from '../../activities/report/reportData.ts';
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

/** Renders the report page and writes it atomically; returns the bytes written. */
export function writeReport(data: ReportData, out: string): number {
  const text = renderReport(data);
  writeFileAtomic(out, text);
  return Buffer.byteLength(text);
}
