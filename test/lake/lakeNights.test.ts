import { lakeOf } from '../../worker/paths.ts';
import { lakeNightsSuite } from './lakeNightsSuite.ts';

// The default lake: a SQLite catalog and the Parquet files under the data directory.
lakeNightsSuite('the DuckLake lake (SQLite catalog, local files)', (h) => lakeOf(h.config));
