CREATE TABLE IF NOT EXISTS _glacier_meta (
  key   VARCHAR PRIMARY KEY,
  value VARCHAR NOT NULL
);
COMMENT ON TABLE _glacier_meta IS 'Facts about the warehouse file itself: schema_version (activities/warehouse/schemaVersion.ts: the layout of every table and view; a file without this table and with _glacier_checkpoints is version 1, written by glacier-etl 0.1.0), written_by (the glacier-etl version that last migrated or created it), migrated_at.';
