import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR, sqlFile } from './sqlFile.ts';

/**
 * Applies sql/schema/*.sql in name order. Every file is idempotent (IF NOT EXISTS / OR REPLACE), and
 * each applied version is recorded by content hash in _glacier_schema_files, so opening an up-to-date
 * warehouse runs nothing and a changed file is re-applied once.
 */
export async function applySchema(connection: DuckDBConnection): Promise<string[]> {
  await connection.run(sqlFile('ops/schemaMigrations.sql'));
  const dir = fileURLToPath(new URL('schema/', SQL_DIR));
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  const known = new Map(
    (await connection.runAndReadAll('SELECT file, sha256 FROM _glacier_schema_files')).getRowObjectsJS().map((r) => [String(r.file), String(r.sha256)]),
  );
  for (const file of files) {
    const text = readFileSync(`${dir}${file}`, 'utf8');
    const sha = createHash('sha256').update(text).digest('hex');
    if (known.get(file) === sha) continue;
    await connection.run('BEGIN');
    try {
      await connection.run(text);
      await connection.run('INSERT OR REPLACE INTO _glacier_schema_files VALUES ($1, $2, now())', [file, sha]);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK');
      throw new Error(`applying sql/schema/${file}: ${(error as Error).message}`, { cause: error });
    }
    applied.push(file);
  }
  return applied;
}
