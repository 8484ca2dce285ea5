-- Bookkeeping tables of the pipeline itself. Idempotent: applied at every open.

CREATE TABLE IF NOT EXISTS _glacier_checkpoints (
  partition_id VARCHAR PRIMARY KEY,
  stream       VARCHAR NOT NULL,
  page_token   VARCHAR,
  cursor       JSON NOT NULL,
  rows         BIGINT NOT NULL,
  pages        BIGINT NOT NULL,
  complete     BOOLEAN NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE _glacier_checkpoints IS 'Durable position of each partition walk; written in the same transaction as the rows it covers. page_token: next page of the current walk (NULL = start of a walk or walk complete). cursor: stream-specific state (high-water marks, walk top, range end, snapshot run). rows/pages: totals over all walks.';

CREATE TABLE IF NOT EXISTS _glacier_sync_runs (
  run_id       VARCHAR NOT NULL,
  partition_id VARCHAR NOT NULL,
  stream       VARCHAR NOT NULL,
  mode         VARCHAR NOT NULL,
  snapshot_at  BIGINT NOT NULL,
  started_at   TIMESTAMPTZ NOT NULL,
  updated_at   TIMESTAMPTZ NOT NULL,
  pages        BIGINT NOT NULL,
  rows         BIGINT NOT NULL,
  done         BOOLEAN NOT NULL,
  PRIMARY KEY (run_id, partition_id)
);
COMMENT ON TABLE _glacier_sync_runs IS 'One row per (pipeline run, partition): pages and rows committed by that run, and whether its walk finished. Written with the checkpoint.';

CREATE TABLE IF NOT EXISTS _glacier_snapshot_walks (
  stream       VARCHAR NOT NULL,
  partition_id VARCHAR NOT NULL,
  snapshot_at  BIGINT NOT NULL,
  params       JSON NOT NULL,
  run_id       VARCHAR NOT NULL,
  rows         BIGINT NOT NULL,
  pages        BIGINT NOT NULL,
  completed_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (stream, partition_id, snapshot_at)
);
COMMENT ON TABLE _glacier_snapshot_walks IS 'Finished walks of snapshot-replace partitions (balances, pending rewards, holders): one row per (stream, partition, snapshot time), written in the same transaction as the walk''s last page and its checkpoint, whether the walk found rows or none. params: the partition''s endpoint parameters (chainId, address(es), network, blockchainId, nodeIds, threshold), which name what the walk covers. rows/pages: what the walk wrote across its tables. The *_latest views read the last finished walk of each address, address set or contract; rows of a walk that never finished are never latest.';
-- What each (run, partition) cost in compute units (added after the first release: ALTER keeps
-- existing warehouses). cu: every attempt charged, retries included; walk CU = pages x weight, the
-- rest is overhead. weight and page_limit (the endpoint's largest page; NULL for get endpoints, one
-- call per item) make the optimum computable in SQL: weight x ceil(items / page_limit), at least one
-- request per walk. Partition 'plan' holds what planning itself spent (head probes).
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS requests BIGINT DEFAULT 0;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS cu BIGINT DEFAULT 0;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS rejected_429 BIGINT DEFAULT 0;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS items BIGINT DEFAULT 0;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS weight INTEGER;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS page_limit INTEGER;
-- Pages the server cut short while more remained, and their items (the optimum counts them as whole requests).
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS cut_pages BIGINT DEFAULT 0;
ALTER TABLE _glacier_sync_runs ADD COLUMN IF NOT EXISTS cut_items BIGINT DEFAULT 0;
