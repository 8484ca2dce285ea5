import { lakeOf } from '../../worker/paths.ts';
import { lakeShardsSuite } from './lakeShardsSuite.ts';

// Two shards into one DuckLake with a SQLite catalog.
lakeShardsSuite('shards export into one lake', (shared) => lakeOf({ dataDir: shared }));
