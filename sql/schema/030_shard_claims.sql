-- Placement groups this shard has been given (sharded layout only; see common/shards.ts). A claim
-- is written before the group's first partition starts, so a group whose first batch has not
-- committed yet still belongs to this shard: the pipeline sends it nowhere else. Idempotent.

CREATE TABLE IF NOT EXISTS _glacier_shard_claims (
  placement_group VARCHAR NOT NULL,
  shard           VARCHAR NOT NULL,
  run_id          VARCHAR NOT NULL,
  claimed_at      TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (placement_group)
);
COMMENT ON TABLE _glacier_shard_claims IS 'Sharded layout: placement groups (an EVM chain, a primary network) assigned to the shard that owns this file, written when the pipeline assigns the group, before any of its partitions runs. With the checkpoints, what the pipeline asks a shard for to route partitions back to it.';
