-- A newly stored transaction that consumes UTXOs marks them spent where earlier transactions
-- emitted them (on any chain of the network: imports consume exported UTXOs), as the API now does.
-- A spend on another chain arrives in that chain's UTXO shape, so the emitted row takes the spend in
-- its own shape (generic X/C rows have creation_tx_hash): a PChainUtxo gains the consuming block
-- (number only from a P-chain spend), a generic Utxo consumingTxTimestamp and the credentials (which
-- only an X/C-chain spend carries). consuming_block_timestamp is the spend's time in both shapes.
UPDATE pn_transaction_utxos AS e
SET consuming_tx_hash = coalesce(c.consuming_tx_hash, c.tx_hash),
    consuming_block_number = CASE WHEN e.creation_tx_hash IS NULL THEN c.consuming_block_number END,
    consuming_block_timestamp = c.consuming_block_timestamp,
    consuming_tx_timestamp = CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.consuming_block_timestamp END,
    consumed_on_chain_id = c.consumed_on_chain_id,
    credentials = CASE WHEN e.creation_tx_hash IS NOT NULL THEN c.credentials END
FROM {stage} AS c
WHERE c.direction = 'consumed'
  AND e.direction = 'emitted'
  AND e.network = c.network
  AND e.utxo_id = c.utxo_id
  AND e.consuming_tx_hash IS DISTINCT FROM coalesce(c.consuming_tx_hash, c.tx_hash);
