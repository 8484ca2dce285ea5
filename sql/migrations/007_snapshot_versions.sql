-- Step 7 (activities/warehouse/snapshotVersionsStep.ts): one snapshot table becomes versions. Run once
-- per table, after the sql/schema files added its valid_to column, with the placeholders filled:
-- {table} (and {table_name}, unquoted), {key} (its key without snapshot_at, comma-separated), {tracked} (every other column but
-- valid_to), {streams} (the walks that answer for its rows, quoted), {scope} (which rows a walk answers
-- for: a predicate over the row t and the walk's params p), {key_text} (the key as _glacier_walk_keys
-- stores it).

-- 1. A row held until the next finished walk of its partition, or until the next row of its key (a
-- walk that never finished stored it), whichever came first; NULL: it is the current version.
UPDATE {table} AS u SET valid_to = n.valid_to
FROM (
  SELECT t.rid, least(any_value(t.next_row), min(w.walk_at)) AS valid_to
  FROM (SELECT rowid AS rid, *, lead(snapshot_at) OVER (PARTITION BY {key} ORDER BY snapshot_at) AS next_row FROM {table}) AS t
  LEFT JOIN (SELECT snapshot_at AS walk_at, params AS p FROM _glacier_snapshot_walks WHERE stream IN ({streams})) AS w
    ON w.walk_at > t.snapshot_at AND ({scope})
  GROUP BY t.rid
) AS n
WHERE u.rowid = n.rid AND n.valid_to IS NOT NULL;

-- 2. A walk under way (its checkpoint incomplete) keeps the keys its stored pages listed, so the commit
-- that finishes it closes only what it did not list (as if it had run on this version from its start).
INSERT INTO _glacier_walk_keys (stream, partition_id, snapshot_at, table_name, key)
SELECT DISTINCT c.stream, c.partition_id, t.snapshot_at, '{table_name}', {key_text}
FROM _glacier_checkpoints c
JOIN (SELECT stream, partition_id, arg_max(params, snapshot_at) AS p FROM _glacier_snapshot_walks WHERE stream IN ({streams}) GROUP BY ALL) AS w
  ON w.stream = c.stream AND w.partition_id = c.partition_id
JOIN {table} AS t ON t.snapshot_at = CAST(c.cursor->>'snapshotAt' AS BIGINT) AND ({scope})
WHERE NOT c.complete;

-- 3. Consecutive versions of a key with the same values (a snapshot that saw no change) become one:
-- the first keeps its snapshot_at and takes the last one's valid_to; the others go.
CREATE OR REPLACE TEMP TABLE _glacier_collapse AS
SELECT rid,
       first_value(rid) OVER g AS keep,
       last_value(valid_to) OVER g AS end_at
FROM (
  SELECT *, sum(CASE WHEN starts THEN 1 ELSE 0 END) OVER (PARTITION BY {key} ORDER BY snapshot_at ROWS UNBOUNDED PRECEDING) AS grp
  FROM (
    SELECT rowid AS rid, {key}, snapshot_at, valid_to,
           lag(valid_to) OVER k IS DISTINCT FROM snapshot_at OR lag(ROW({tracked})) OVER k IS DISTINCT FROM ROW({tracked}) AS starts
    FROM {table}
    WINDOW k AS (PARTITION BY {key} ORDER BY snapshot_at)
  )
)
WINDOW g AS (PARTITION BY {key}, grp ORDER BY snapshot_at ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING);

UPDATE {table} AS u SET valid_to = c.end_at
FROM _glacier_collapse c
WHERE u.rowid = c.rid AND c.rid = c.keep AND u.valid_to IS DISTINCT FROM c.end_at;

DELETE FROM {table} WHERE rowid IN (SELECT rid FROM _glacier_collapse WHERE rid <> keep);

DROP TABLE _glacier_collapse;
