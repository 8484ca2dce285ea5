-- Finished walks' recorded keys are consumed: $1 streams, $2 partition ids, pairwise (keys of
-- abandoned earlier walks of the partition go too).
DELETE FROM _glacier_walk_keys AS k
USING (SELECT unnest($1::VARCHAR[]) AS s, unnest($2::VARCHAR[]) AS p) AS f
WHERE k.stream = f.s AND k.partition_id = f.p;
