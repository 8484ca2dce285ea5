-- pn_utxos_consumed (lake only, activities/streams/pnUtxos.ts, lake layout 4): the spend of each spent
-- UTXO of pn_utxos. The lake's pn_utxos files hold these columns NULL, so a spend writes a file of the
-- spend's day, not the file of the day the UTXO was created.
SELECT network, blockchain_id, utxo_id, consuming_tx_hash, consuming_block_number, consuming_block_timestamp, consuming_tx_timestamp, credentials
FROM pn_utxos
WHERE consuming_tx_hash IS NOT NULL
