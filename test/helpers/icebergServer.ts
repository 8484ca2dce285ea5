/**
 * An Iceberg REST catalog for the lake's Iceberg tests: the Apache Iceberg REST test server (the plain
 * jar org.apache.iceberg:iceberg-open-api:1.10.0, Main-Class RESTCatalogServer), downloaded once from
 * Maven Central into the per-user cache and checked against Maven's SHA-1, run with java (JAVA_HOME,
 * else PATH) on a free port of 127.0.0.1 with a file:// warehouse and a SQLite catalog in `dir`. Each
 * CATALOG_* variable is a catalog property. It accepts any OAuth2 credentials and token.
 * The lake is read back with pyiceberg 0.12 (PyPI, a venv in the cache; test/helpers/icebergRead.py).
 * Without java or python3 the tests say so in one line and skip. `npx tsx test/helpers/icebergServer.ts
 * --install` (.ci/run) fetches the jar and makes the venv.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { extensionDirectory } from '../../activities/warehouse/extensions.ts';
import type { IcebergSettings } from '../../activities/lake/settings.ts';
import { freePort } from '../../worker/freePort.ts';
import type { S3Server } from './s3Server.ts';

const VERSION = '1.10.0';
const PYICEBERG = '0.12.0';
const JAR_URL = `https://repo1.maven.org/maven2/org/apache/iceberg/iceberg-open-api/${VERSION}/iceberg-open-api-${VERSION}.jar`;
const cache = () => join(extensionDirectory(), '..');
const jar = () => join(cache(), `iceberg-rest-${VERSION}`, `iceberg-open-api-${VERSION}.jar`);
const python = () => join(cache(), `pyiceberg-${PYICEBERG}`, 'bin', 'python');

function java(): string | undefined {
  const candidates = [...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'java')] : []), 'java'];
  return candidates.find((c) => spawnSync(c, ['-version']).status === 0);
}

async function sha1(file: string): Promise<string> {
  const hash = createHash('sha1');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Why the Iceberg tests cannot run here (no java, no python3), or undefined once the jar and pyiceberg are in the cache. */
export async function ensureIceberg(): Promise<string | undefined> {
  if (!java()) return 'no java on JAVA_HOME or PATH: the Iceberg lake tests need it for the REST catalog server';
  if (!existsSync(python())) {
    if (spawnSync('python3', ['--version']).status !== 0) return 'no python3 on PATH: the Iceberg lake tests read the lake with pyiceberg';
    const venv = join(cache(), `pyiceberg-${PYICEBERG}`);
    for (const args of [['python3', '-m', 'venv', venv], [join(venv, 'bin', 'pip'), 'install', '--quiet', `pyiceberg[pyarrow]==${PYICEBERG}`]]) {
      const r = spawnSync(args[0], args.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
      if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status})`);
    }
  }
  if (!existsSync(jar())) {
    mkdirSync(join(jar(), '..'), { recursive: true });
    const expected = (await (await fetch(`${JAR_URL}.sha1`)).text()).trim().slice(0, 40);
    const response = await fetch(JAR_URL);
    if (!response.ok || !response.body) throw new Error(`${JAR_URL}: HTTP ${response.status}`);
    const tmp = `${jar()}.${process.pid}.tmp`;
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(tmp));
    const actual = await sha1(tmp);
    if (actual !== expected) throw new Error(`${JAR_URL}: SHA-1 ${actual}, Maven Central says ${expected}`);
    renameSync(tmp, jar());
  }
  return undefined;
}

export interface IcebergCatalog {
  endpoint: string;
  /** The catalog's files: the warehouse (metadata and data) and its SQLite database; `log` the server's output. */
  dir: string;
  log: string;
  stop(): Promise<void>;
}

/**
 * Starts the REST catalog server (about 2 s, 200 MB) on a free port with its warehouse under a new
 * directory, or with `s3` in that bucket (S3FileIO, path-style, the AWS_* key pair of the environment).
 */
export async function startIcebergCatalog(options: { s3?: S3Server } = {}): Promise<IcebergCatalog> {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-iceberg-'));
  const port = await freePort();
  const log = join(dir, 'server.log');
  const out = openSync(log, 'w');
  const s3 = options.s3 && {
    CATALOG_WAREHOUSE: `s3://${options.s3.bucket}/iceberg`,
    CATALOG_IO__IMPL: 'org.apache.iceberg.aws.s3.S3FileIO',
    CATALOG_S3_ENDPOINT: `http://${options.s3.endpoint}`,
    CATALOG_S3_PATH__STYLE__ACCESS: 'true',
    CATALOG_S3_ACCESS__KEY__ID: process.env.AWS_ACCESS_KEY_ID,
    CATALOG_S3_SECRET__ACCESS__KEY: process.env.AWS_SECRET_ACCESS_KEY,
    CATALOG_CLIENT_REGION: process.env.AWS_REGION ?? 'us-east-1',
  };
  const env = { ...process.env, CATALOG_WAREHOUSE: `file://${join(dir, 'warehouse')}`, ...s3, CATALOG_URI: `jdbc:sqlite:${join(dir, 'catalog.db')}`, CATALOG_REST_PORT: String(port) };
  const child: ChildProcess = spawn(java()!, ['-Xmx512m', '-jar', jar()], { env, stdio: ['ignore', out, out] });
  const endpoint = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the Iceberg REST server exited (${child.exitCode}); see ${log}`);
    if (await fetch(`${endpoint}v1/config`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error(`the Iceberg REST server did not answer on ${endpoint}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    dir,
    log,
    stop: async () => {
      if (child.exitCode === null) await new Promise((r) => (child.once('close', r), child.kill('SIGTERM')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What pyiceberg reads of the lake (as of `asOf`, epoch ms, when given): every table of the namespace
 * scanned to Arrow, written as Parquet and copied into a DuckDB file the test compares with the
 * warehouse (lakeCompare.ts lakeDifferences). Credentials from the GLACIER_ICEBERG_* variables.
 */
export async function readWithPyiceberg(lake: IcebergSettings, asOf?: number): Promise<{ file: string; tables: string[]; close: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'glacier-iceberg-read-'));
  const s3 = lake.s3?.endpoint ? `${lake.s3.useSsl === false ? 'http' : 'https'}://${lake.s3.endpoint}` : '-';
  const r = spawnSync(python(), [new URL('./icebergRead.py', import.meta.url).pathname, lake.endpoint, lake.warehouse, lake.namespace, dir, asOf === undefined ? '-' : String(asOf), s3], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`pyiceberg reader exit ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const tables = (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { tables: string[] }).tables;
  const file = join(dir, 'copy.duckdb');
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  for (const t of tables) await connection.run(`CREATE TABLE "${t}" AS SELECT * FROM read_parquet('${join(dir, `${t}.parquet`)}')`);
  connection.closeSync();
  instance.closeSync();
  return { file, tables, close: () => rmSync(dir, { recursive: true, force: true }) };
}

if (process.argv.includes('--install') && process.argv[1]?.endsWith('icebergServer.ts')) {
  const missing = await ensureIceberg();
  console.log(missing ?? `Iceberg REST server ${VERSION} in ${jar()}, pyiceberg ${PYICEBERG} in ${python()}`);
}
