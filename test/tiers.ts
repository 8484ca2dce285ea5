/**
 * The two test commands. `npm test` runs every test file but these; `npm run test:long` runs these:
 * campaigns, several worker processes, a previous release built from git, and worlds or histories
 * large enough to take minutes on two cores. `.ci/run` runs both, so CI still runs everything; a
 * file that grows long moves here with its reason (docs/development.md, "Test tiers").
 */
export const LONG_TESTS: Record<string, string> = {
  'test/reliability/campaign.test.ts': 'the crash and fault campaign: 10 worker SIGKILLs and a server restart',
  'test/shards/shardedBackfill.test.ts': 'three worker processes, one SIGKILLed mid-walk',
  'test/upgrade/upgradeInFlight.test.ts': "builds the previous release from its commit and runs its worker",
  'test/warehouse/utxoDerivation.test.ts': 'every commit order of two walks, one page at a time',
  'test/warehouse/incrementalUtxoSpends.test.ts': 'both commit orders of two walks over several syncs',
  'test/warehouse/rewardSkip.test.ts': "the 'small' world's P-chain, backfilled three times",
  'test/warehouse/walkKnownTail.test.ts': "the 'small' world, every stream, an interrupted walk",
  'test/warehouse/checkpointRoom.test.ts': '60 nights that write every table under a small buffer',
  'test/warehouse/commitMemory.test.ts': 'a stored history of 1.5M rows under a small buffer',
  'test/lake/lakeMarks.test.ts': 'the UTXO world exported whole, then after syncs and a crash, read by another process and compared with the warehouse each time',
  'test/lake/lakeIsolation.test.ts': 'reader processes during exports, and an exporter process SIGKILLed at 11 points',
  'test/lake/lakeNightsS3.test.ts': 'a backfill and synced nights exported to an S3 server (moto) the test starts, compared from another process',
  'test/lake/lakeShards.test.ts': 'two shard warehouses backfilled, then exported by two processes at once into one catalog',
  'test/lake/lakeNightsIceberg.test.ts': 'a backfill and synced nights exported to an Iceberg REST catalog server (java) the test starts, read back by pyiceberg',
  'test/lake/lakeNightsIcebergS3.test.ts': 'the same nights into an Iceberg REST catalog whose warehouse is a bucket of an S3 server (moto) the test starts',
  'test/lake/lakeIcebergPipeline.test.ts': 'a backfill exported to an Iceberg REST catalog by the pipeline workflow on the dev server; no secret in any history, log or file',
  'test/lake/lakeIcebergConflict.test.ts': 'an Iceberg export replayed after another commit, and one that meets a commit on all 8 attempts',
  'test/lake/lakeShardsIceberg.test.ts': 'two shard warehouses exported by two processes at once into one Iceberg REST catalog',
  'test/temporal/pipelineSweep.test.ts': 'five whole pipeline runs, the sweep lost or failing in two of them',
};

/** Where vitest looks for test files (the layers' tests and pure modules' tests beside them). */
export const TEST_FILES = ['test/**/*.test.ts', '{activities,tools,worker,cli,workflows}/**/*.test.ts'];
