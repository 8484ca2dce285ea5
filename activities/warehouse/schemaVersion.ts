import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { pendingSchemaFiles } from './schemaFiles.ts';
import { sqlFile } from './sqlFile.ts';
import { convertSnapshotTablesToVersions } from './snapshotVersionsStep.ts';

/**
 * The warehouse schema version: the layout of every table and view this build writes. A file
 * records the version it was written with in _glacier_meta; a file without that table but with
 * 0.1.0's tables is version 1 (glacier-etl 0.1.0 recorded none).
 *
 * A schema change is "add a step and bump": append a step below with the next version and set
 * WAREHOUSE_SCHEMA_VERSION to it. New tables and views still go into sql/schema files and new
 * columns through added()/retyped() (activities/streams/columns.ts); the step names what the version
 * brings and carries any SQL those idempotent files cannot express (a data rewrite, a rename), as a
 * file under sql/migrations/. Opening an older file runs the steps it lacks and every changed
 * sql/schema file in ONE transaction with the new version, so a failure leaves it as it was.
 */
export const WAREHOUSE_SCHEMA_VERSION = 9;

export interface SchemaStep {
  /** The version this step brings the file to (steps are ordered by it, one per version). */
  version: number;
  /** What the version changes, for people (docs/upgrading.md lists the same). */
  summary: string;
  /** SQL run before the sql/schema files: a file under sql/ (e.g. 'migrations/003_x.sql'). */
  sql?: string;
  /** Code run in the migration transaction (tests inject a failing step here). */
  run?: (connection: DuckDBConnection) => Promise<void>;
  /**
   * Code run after the sql/schema files, in the same transaction: a data rewrite of columns those
   * files add (DuckDB refuses to commit a transaction that alters a table after updating it, and the
   * files alter tables).
   */
  afterSchema?: (connection: DuckDBConnection) => Promise<void>;
}

export const SCHEMA_STEPS: readonly SchemaStep[] = [
  // 1: glacier-etl 0.1.0 (no version recorded).
  { version: 2, summary: 'the file records its schema version in _glacier_meta' },
  { version: 3, summary: 'lake state: partitions each commit changed (_glacier_changed_partitions), exported layouts, the nightly verify watermark' },
  { version: 4, summary: 'schema drift: an _extra JSON column on every stream table, _glacier_drift and _glacier_stream_fields' },
  // The columns and their fill (from the parent rows) are added() columns of the catalog: the sql/schema file this step's
  // transaction applies adds and fills them.
  {
    version: 5,
    summary:
      'dated lake partitions for the link and detail-child tables: block_timestamp on evm_address_transactions and the evm_transaction_details children (filled from the parent rows), pn_address_transactions dated by its block_timestamp',
  },
  { version: 6, summary: 'the size of the warehouse at the end of each pipeline run, with what the run cost (_glacier_run_sizes)' },
  {
    version: 7,
    summary:
      'snapshot tables hold versions: valid_to on evm_native_balances, evm_erc20/721/1155_balances, pn_balances, pn_pending_rewards and metrics_holders (set from the next finished walk of each partition, identical consecutive versions merged), _glacier_walk_keys',
    afterSchema: convertSnapshotTablesToVersions,
  },
  {
    version: 8,
    summary: 'the lake is a DuckLake: the Parquet export state (_glacier_exports) dropped, the first export after the upgrade builds the lake from the warehouse',
    sql: 'migrations/008_ducklake.sql',
  },
  {
    version: 9,
    summary:
      "pn_transaction_utxos.tx_block_timestamp: the transaction's time (filled from pn_transactions), on which merges match and the UTXO derivation finds a batch's rows, so a night's commits read the row groups of its days instead of the whole history",
  },
];

/** A warehouse written by a newer glacier-etl: refused before anything touches the file. */
export class WarehouseTooNewError extends Error {
  constructor(path: string, found: number, supported: number) {
    super(`warehouse ${path} has schema version ${found}, newer than this glacier-etl reads (version ${supported}): upgrade glacier-etl, or use a copy of the file from before the upgrade`);
    this.name = 'WarehouseTooNewError';
  }
}

/** The version a file records; 1 for a file with 0.1.0's tables and no version; undefined for a new (empty) file. */
export async function readSchemaVersion(connection: DuckDBConnection): Promise<number | undefined> {
  const [tables] = (await connection.runAndReadAll(sqlFile('ops/schemaVersion.sql'))).getRowObjectsJS();
  if (!tables.has_meta) return tables.has_checkpoints ? 1 : undefined;
  const rows = (await connection.runAndReadAll("SELECT value FROM _glacier_meta WHERE key = 'schema_version'")).getRowObjectsJS();
  const version = Number(rows[0]?.value);
  if (!Number.isInteger(version) || version < 1) throw new Error(`warehouse: _glacier_meta holds no valid schema_version (${JSON.stringify(rows[0]?.value ?? null)})`);
  return version;
}

/**
 * Reads an existing file's version through a read-only instance and refuses a newer one, so a
 * refused file is left byte for byte as it was (a read-write open may write to it).
 */
export async function refuseNewerWarehouse(path: string, supported = WAREHOUSE_SCHEMA_VERSION): Promise<number | undefined> {
  if (path === ':memory:' || !existsSync(path)) return undefined;
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const version = await readSchemaVersion(connection);
      if (version !== undefined && version > supported) throw new WarehouseTooNewError(path, version, supported);
      return version;
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

export interface Migration {
  /** undefined: a new file. */
  from: number | undefined;
  to: number;
  /** The steps run and the sql/schema files applied. */
  applied: string[];
}

/**
 * Brings the file to `target` in one transaction: the steps after its version (none for a new
 * file: the schema files create the current layout), every sql/schema file whose text changed
 * since it was last applied, and the version itself. Up to date: runs nothing and writes nothing.
 */
export async function migrateWarehouse(
  connection: DuckDBConnection,
  options: { path: string; steps?: readonly SchemaStep[]; target?: number },
): Promise<Migration> {
  const steps = [...(options.steps ?? SCHEMA_STEPS)].sort((a, b) => a.version - b.version);
  const target = options.target ?? WAREHOUSE_SCHEMA_VERSION;
  if (steps.length && steps.at(-1)!.version !== target) throw new Error(`schema steps end at version ${steps.at(-1)!.version}, not at WAREHOUSE_SCHEMA_VERSION ${target}`);
  const from = await readSchemaVersion(connection);
  if (from !== undefined && from > target) throw new WarehouseTooNewError(options.path, from, target);
  await connection.run(sqlFile('ops/schemaMigrations.sql'));
  const files = await pendingSchemaFiles(connection);
  if (from === target && files.length === 0) return { from, to: target, applied: [] };
  const applied: string[] = [];
  await connection.run('BEGIN TRANSACTION');
  let current = 'starting';
  try {
    for (const step of steps) {
      if (from === undefined || step.version <= from) continue;
      current = `step ${step.version} (${step.summary})`;
      if (step.sql) await connection.run(sqlFile(step.sql));
      if (step.run) await step.run(connection);
      applied.push(`step ${step.version}`);
    }
    for (const file of files) {
      current = `sql/schema/${file.file}`;
      await connection.run(file.text);
      await connection.run('INSERT OR REPLACE INTO _glacier_schema_files VALUES ($1, $2, now())', [file.file, file.sha256]);
      applied.push(file.file);
    }
    for (const step of steps) {
      if (from === undefined || step.version <= from || !step.afterSchema) continue;
      current = `step ${step.version} (${step.summary}), after the schema files`;
      await step.afterSchema(connection);
    }
    current = 'recording the version';
    await connection.run(sqlFile('ops/glacierMeta.sql'));
    await connection.run(sqlFile('ops/setGlacierMeta.sql'), ['schema_version', String(target)]);
    await connection.run(sqlFile('ops/setGlacierMeta.sql'), ['migrated_at', new Date().toISOString()]);
    // A new file: no commit marks what it changes until an export or a verify first reads it (Warehouse.startChangeMarks).
    if (from === undefined) await connection.run(sqlFile('ops/setGlacierMeta.sql'), ['change_marks', 'off']);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK');
    const what = from === undefined ? `creating warehouse ${options.path}` : `migrating warehouse ${options.path} from schema version ${from} to ${target}`;
    throw new Error(`${what}: ${current} failed, nothing changed: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  return { from, to: target, applied };
}
