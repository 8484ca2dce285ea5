import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Parquet lake's layout version, in a small file at the lake root. Version 1 is 0.1.0's layout
 * (hive partitions per table, one file per partition and shard), which wrote no file: a lake
 * without it is version 1. A layout change is "add a step and bump", as for the warehouse
 * (activities/warehouse/schemaVersion.ts); the file is rewritten only after every step ran.
 */
export const LAKE_LAYOUT_VERSION = 4;
export const LAKE_VERSION_FILE = '_glacier_lake.json';

export interface LakeStep {
  version: number;
  summary: string;
  run: (root: string) => void;
}

/** Steps after version 1, in order. */
export const LAKE_STEPS: readonly LakeStep[] = [
  {
    version: 2,
    // Recorded before any table is converted, so older code refuses the lake from then on. The
    // conversion needs the warehouse: each table whose entry is still a directory is rewritten by the
    // export into its first generation, which then replaces the directory (lakeGenerations.ts).
    summary: 'tables become links to generations; hive keys month= instead of date=; past months compacted',
    run: () => undefined,
  },
  {
    version: 3,
    // Recorded before the conversion, as step 2. The conversion is the export's: the tables with
    // deferred columns (pn_transaction_utxos, pn_transactions) have a new layout signature, so their
    // next export takes the full path (spend and reward columns written NULL where deferred), and the
    // lake-only tables derived from them (pn_utxo_spends, pn_transaction_rewards) are written whole.
    summary: 'spends of emitted UTXOs and staking rewards in lake-only tables dated by when they happened (pn_utxo_spends, pn_transaction_rewards)',
    run: () => undefined,
  },
  {
    version: 4,
    // As step 3: pn_utxos has deferred columns now (a new layout signature, so the full path writes its
    // spend columns NULL), and its lake-only table pn_utxos_consumed is written whole.
    summary: 'spends of the UTXOs of pn_utxos in a lake-only table dated by when they happened (pn_utxos_consumed)',
    run: () => undefined,
  },
];

export class LakeTooNewError extends Error {
  constructor(root: string, found: number, supported: number) {
    super(`Parquet lake ${root} has layout version ${found}, newer than this glacier-etl writes (version ${supported}): upgrade glacier-etl`);
    this.name = 'LakeTooNewError';
  }
}

/** The layout version of the lake at root (1 when it has no version file, or does not exist yet). */
export function readLakeLayout(root: string): number {
  const file = join(root, LAKE_VERSION_FILE);
  if (!existsSync(file)) return 1;
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(file, 'utf8')) as { layoutVersion?: unknown }).layoutVersion;
  } catch (error) {
    throw new Error(`Parquet lake ${root}: ${LAKE_VERSION_FILE} is not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new Error(`Parquet lake ${root}: ${LAKE_VERSION_FILE} holds no valid layoutVersion`);
  return version;
}

/** Refuses a lake of a newer layout (reads only). */
export function checkLakeLayout(root: string, supported = LAKE_LAYOUT_VERSION): number {
  const version = readLakeLayout(root);
  if (version > supported) throw new LakeTooNewError(root, version, supported);
  return version;
}

/** Before an export writes: refuses a newer lake, runs the missing steps, records the current version. */
export function ensureLakeLayout(root: string, options: { steps?: readonly LakeStep[]; target?: number } = {}): void {
  const target = options.target ?? LAKE_LAYOUT_VERSION;
  const version = checkLakeLayout(root, target);
  const file = join(root, LAKE_VERSION_FILE);
  if (version === target && existsSync(file)) return;
  for (const step of options.steps ?? LAKE_STEPS) if (step.version > version && step.version <= target) step.run(root);
  mkdirSync(root, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ layoutVersion: target })}\n`);
  renameSync(tmp, file);
}
