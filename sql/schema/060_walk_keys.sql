-- The keys a snapshot walk of a versioned table has listed so far (activities/warehouse/versions.ts). Idempotent.
CREATE TABLE IF NOT EXISTS _glacier_walk_keys (
  stream       VARCHAR NOT NULL,
  partition_id VARCHAR NOT NULL,
  snapshot_at  BIGINT NOT NULL,
  table_name   VARCHAR NOT NULL,
  key          VARCHAR NOT NULL
);
COMMENT ON TABLE _glacier_walk_keys IS 'Keys of versioned snapshot tables (balances, pending rewards, holders) that the pages of an unfinished walk of several commits listed: one row per (stream, partition, snapshot, table, key), written in the transaction of the page''s rows (a walk one commit holds whole records none: its closes read that commit''s rows). key: the table''s key without snapshot_at, its values as text joined by chr(31). The commit that finishes the walk closes (valid_to = its snapshot) the open versions the walk answers for whose key is not here, then deletes the partition''s rows; rows of a walk that never finished go with the next finished walk of the partition. Empty between walks.';
