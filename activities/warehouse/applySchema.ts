import type { DuckDBConnection } from '@duckdb/node-api';
import { migrateWarehouse } from './schemaVersion.ts';

/**
 * Brings a warehouse to the current schema: the versioned migration (activities/warehouse/
 * schemaVersion.ts) runs the steps it lacks and the changed sql/schema files in one transaction.
 * Returns what it applied.
 */
export async function applySchema(connection: DuckDBConnection, path = 'warehouse'): Promise<string[]> {
  return (await migrateWarehouse(connection, { path })).applied;
}

