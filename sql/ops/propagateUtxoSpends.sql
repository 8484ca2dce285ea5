-- A newly stored transaction that consumes UTXOs marks them spent where earlier transactions
-- emitted them (on any chain of the network: imports consume exported UTXOs), as the API now does.
-- The generic X/C-chain Utxo also gains the spender's credentials when it is spent.
UPDATE pn_transaction_utxos AS e
SET consuming_tx_hash = coalesce(c.consuming_tx_hash, c.tx_hash),
    consuming_block_number = c.consuming_block_number,
    consuming_block_timestamp = c.consuming_block_timestamp,
    consuming_tx_timestamp = c.consuming_tx_timestamp,
    consumed_on_chain_id = c.consumed_on_chain_id,
    credentials = c.credentials
FROM {stage} AS c
WHERE c.direction = 'consumed'
  AND e.direction = 'emitted'
  AND e.network = c.network
  AND e.utxo_id = c.utxo_id
  AND e.consuming_tx_hash IS DISTINCT FROM coalesce(c.consuming_tx_hash, c.tx_hash);
