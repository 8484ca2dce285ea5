import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATIONS_DIR } from '../../activities/warehouse/lakeGenerations.ts';

/** Every file of a lake as a reader sees it: through each table's link, without the generations behind them (absolute paths). */
export function lakeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== GENERATIONS_DIR)
    .flatMap((e) => (e.isDirectory() || e.isSymbolicLink() ? lakeFiles(join(dir, e.name)) : [join(dir, e.name)]));
}
