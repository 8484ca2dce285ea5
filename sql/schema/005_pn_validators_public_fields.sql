-- Migration of warehouses created before pn_validators had the active-validator fields of the
-- public service (issue 13). Runs before 010_tables.sql, whose COMMENT ON COLUMN statements need the
-- columns to exist. A new warehouse has no table yet here (IF EXISTS: nothing to do) and gets the
-- columns from 010; both end with the same column order (010 lists them last). Idempotent.
ALTER TABLE IF EXISTS pn_validators ADD COLUMN IF NOT EXISTS avalanche_go_version VARCHAR;
ALTER TABLE IF EXISTS pn_validators ADD COLUMN IF NOT EXISTS delegation_capacity HUGEINT;
