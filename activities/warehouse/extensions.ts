import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { unzipSync } from 'fflate';

/**
 * DuckDB extensions (the lake's: ducklake or iceberg, and the catalog's and storage's scanners), provided the
 * way scripts/install-temporal.sh provides the Temporal CLI: DuckDB's own repository first (`INSTALL`),
 * then, where that repository is unreachable, the wheel PyPI ships for the same DuckDB version
 * (`duckdb-extension-<name>`: the binary sits at `duckdb_extension_<name>/extensions/v<version>/`),
 * fetched over HTTPS with Node, no pip. Both land in one per-user cache laid out as DuckDB's own
 * extension directory (`<cache>/v1.5.5/linux_amd64/ducklake.duckdb_extension`), so `LOAD ducklake`
 * finds them in every later process and clone. A file is written under a temporary name and renamed,
 * so processes installing at once (parallel test files) never load half a file.
 */
export type DuckDBExtension = 'ducklake' | 'sqlite_scanner' | 'postgres_scanner' | 'httpfs' | 'aws' | 'avro' | 'iceberg';

/** The per-user cache (GLACIER_TOOLS_DIR and XDG_CACHE_HOME respected, as for the Temporal CLI). */
export function extensionDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.GLACIER_TOOLS_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'glacier-etl'), 'duckdb-extensions');
}

/** DuckDB's platform name -> the wheel's platform tag. */
const WHEEL_PLATFORMS: Record<string, RegExp> = {
  linux_amd64: /manylinux\w*_x86_64\.whl$/,
  linux_arm64: /manylinux\w*_aarch64\.whl$/,
  osx_amd64: /macosx_\w+_x86_64\.whl$/,
  osx_arm64: /macosx_\w+_arm64\.whl$/,
  windows_amd64: /win_amd64\.whl$/,
};

/** Fetches the extension's wheel for this DuckDB version and platform from PyPI into `target`. */
async function fromPyPI(name: DuckDBExtension, version: string, platform: string, target: string): Promise<void> {
  const project = `duckdb-extension-${name.replaceAll('_', '-')}`;
  const meta = (await (await fetch(`https://pypi.org/pypi/${project}/json`)).json()) as { releases?: Record<string, { filename: string; url: string }[]> };
  const wheel = meta.releases?.[version]?.find((f) => WHEEL_PLATFORMS[platform]?.test(f.filename));
  if (!wheel) throw new Error(`PyPI has no ${project} ${version} wheel for ${platform}`);
  const response = await fetch(wheel.url);
  if (!response.ok) throw new Error(`${wheel.url}: HTTP ${response.status}`);
  const entry = `/extensions/v${version}/${name}.duckdb_extension`;
  const [binary] = Object.values(unzipSync(new Uint8Array(await response.arrayBuffer()), { filter: (f) => f.name.endsWith(entry) }));
  if (!binary) throw new Error(`${wheel.url}: no ${entry} in the wheel`);
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, binary);
  renameSync(tmp, target);
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * Loads the extensions into the connection's DuckDB instance: from the cache, else installed from
 * DuckDB's repository, else from PyPI. Throws one line naming what failed on every path.
 */
export async function loadExtensions(connection: DuckDBConnection, names: readonly DuckDBExtension[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dir = extensionDirectory(env);
  const loaded = new Set((await connection.runAndReadAll('SELECT extension_name FROM duckdb_extensions() WHERE loaded')).getRowObjectsJS().map((r) => String(r.extension_name)));
  const missing = names.filter((n) => !loaded.has(n));
  if (missing.length === 0) return;
  await connection.run(`SET extension_directory = '${dir.replaceAll("'", "''")}'`);
  const [{ version, platform }] = (await connection.runAndReadAll('SELECT version() AS version, (SELECT platform FROM pragma_platform()) AS platform')).getRowObjectsJS() as { version: string; platform: string }[];
  for (const name of missing) {
    const file = join(dir, version, platform, `${name}.duckdb_extension`);
    if (!existsSync(file)) {
      try {
        await connection.run(`INSTALL ${name}`);
      } catch (repository) {
        try {
          await fromPyPI(name, version.replace(/^v/, ''), platform, file);
        } catch (pypi) {
          throw new Error(`DuckDB extension ${name} ${version} (${platform}): not in ${dir}, DuckDB's repository failed (${firstLine(repository)}), PyPI failed (${firstLine(pypi)})`);
        }
      }
    }
    await connection.run(`LOAD ${name}`);
  }
}

