-- Warehouses created before the primary-network variants (issue 13): the string genesis data of
-- non-EVM chains gets its own column, and an L1 validator weight is a uint64 (above 2^53 included).
-- Runs before 010_tables.sql, whose column comments name the new column; on a new warehouse the
-- tables do not exist yet and every statement is skipped (010 then creates them as they are now).
ALTER TABLE IF EXISTS pn_transactions ADD COLUMN IF NOT EXISTS genesis_data_text VARCHAR;
ALTER TABLE IF EXISTS pn_l1_validator_details ALTER COLUMN weight SET DATA TYPE UBIGINT;
