CREATE TABLE IF NOT EXISTS _glacier_schema_files (
  file       VARCHAR PRIMARY KEY,
  sha256     VARCHAR NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL
);
