-- The keys a commit's pages listed for their walks (versioned tables, activities/warehouse/versions.ts),
-- one row per list position; kept until the commit that finishes the walk reads and forgets them.
INSERT INTO _glacier_walk_keys (stream, partition_id, snapshot_at, table_name, key)
SELECT DISTINCT unnest($1::VARCHAR[]), unnest($2::VARCHAR[]), unnest($3::BIGINT[]), unnest($4::VARCHAR[]), unnest($5::VARCHAR[]);
