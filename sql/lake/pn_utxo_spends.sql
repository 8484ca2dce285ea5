-- pn_utxo_spends (lake only, activities/streams/pnTransactions.ts): the spend of each emitted UTXO row
-- of pn_transaction_utxos, the columns sql/ops/propagateUtxoSpends.sql sets. The lake's
-- pn_transaction_utxos files hold these columns NULL on emitted rows (consumed_on_chain_id as the
-- output named it when created), so a spend writes a file of the spend's day, not the old row's.
SELECT network, blockchain_id, tx_hash, item_index, utxo_id,
       consuming_tx_hash, consuming_block_number, consuming_block_timestamp, consuming_tx_timestamp, consumed_on_chain_id, credentials
FROM pn_transaction_utxos
WHERE direction = 'emitted' AND consuming_tx_hash IS NOT NULL
