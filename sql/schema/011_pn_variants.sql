-- Warehouses created before the primary-network variants (issue 13): the string genesis data of
-- non-EVM chains gets its own column, and an L1 validator weight is a uint64 (above 2^53 included).
-- Idempotent: on a warehouse created from 010_tables.sql both statements change nothing.
ALTER TABLE pn_transactions ADD COLUMN IF NOT EXISTS genesis_data_text VARCHAR;
COMMENT ON COLUMN pn_transactions.genesis_data_text IS 'blockchainInfo.genesisData when it is a string (encoded genesis of a non-EVM chain), exactly as sent';
ALTER TABLE pn_l1_validator_details ALTER COLUMN weight SET DATA TYPE UBIGINT;
