-- A placement group given to this shard (first claim wins; re-claiming is a no-op).
INSERT INTO _glacier_shard_claims (placement_group, shard, run_id, claimed_at)
VALUES ($1, $2, $3, now())
ON CONFLICT (placement_group) DO NOTHING;
