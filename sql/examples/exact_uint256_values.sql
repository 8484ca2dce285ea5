-- uint256 values are exact text; the _num twin is NULL only when a value has more than 38 digits.
SELECT chain_id, tx_hash, value, value_num, length(value) AS digits
FROM evm_transactions
WHERE value_num IS NULL AND value IS NOT NULL
LIMIT 20;
