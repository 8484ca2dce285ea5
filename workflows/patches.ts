// Patch ids of workflow changes made since 0.1.0 (CONTRIBUTING.md, "Workflow changes"). One place, so
// a later deprecatePatch() and the release notes find them all.

/** 0.2.0: `status` also asks for the warehouse and lake versions (a third activity). */
export const STORAGE_VERSIONS_PATCH = 'status-storage-versions';

/** 0.2.0: `status` also lists the schema drift seen (a fourth activity, after the versions). */
export const SCHEMA_DRIFT_PATCH = 'status-schema-drift';

/** 0.2.0: a pipeline run ends by applying the run-record retention (warehouse.runRecordsDays). */
export const PIPELINE_RETENTION_PATCH = 'pipeline-retention';

/** 0.2.0: a pipeline run given `verify` runs the checks after its export (scheduled syncs: `verify --changed`). */
export const PIPELINE_VERIFY_PATCH = 'pipeline-verify-after-export';

/**
 * 0.2.0: a sync pipeline (unsharded) first runs one batch of every partition of a wave in one
 * `syncSweep` activity; only the partitions it did not finish run as child workflows.
 */
export const PIPELINE_SWEEP_PATCH = 'pipeline-sync-sweep';
