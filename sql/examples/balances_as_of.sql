-- Balances of every address set as of a time T, from the versioned pn_balances (docs/schema.md): a row
-- holds from snapshot_at until valid_to (NULL: still current), so the rows of T are
-- snapshot_at <= T AND (valid_to IS NULL OR valid_to > T). T here: the earliest finished pn.balances
-- walk (put any epoch second, e.g. another snapshot_at of _glacier_snapshot_walks, in its place).
WITH t AS (SELECT min(snapshot_at) AS at FROM _glacier_snapshot_walks WHERE stream = 'pn.balances')
SELECT b.network, b.blockchain_id, b.address_set, b.kind, b.asset_symbol, sum(b.amount) AS amount
FROM pn_balances b, t
WHERE b.snapshot_at <= t.at AND (b.valid_to IS NULL OR b.valid_to > t.at)
GROUP BY ALL
ORDER BY amount DESC
LIMIT 50;
