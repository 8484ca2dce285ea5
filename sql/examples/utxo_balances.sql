-- Unspent balance per address and asset, from the UTXO set (exact integer amounts).
SELECT network, blockchain_id, address, asset_symbol, utxos, amount, staked_amount
FROM v_pn_utxo_balances
ORDER BY amount DESC
LIMIT 50;
