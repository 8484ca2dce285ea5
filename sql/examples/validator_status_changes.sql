-- Validations whose status changed between snapshots (SCD2 history), most recent first.
SELECT network, node_id, tx_hash, validation_status, to_timestamp(valid_from) AS since, to_timestamp(valid_to) AS until
FROM pn_validator_status_history
WHERE (network, node_id, tx_hash) IN (SELECT network, node_id, tx_hash FROM pn_validator_status_history GROUP BY ALL HAVING count(*) > 1)
ORDER BY valid_from DESC;
