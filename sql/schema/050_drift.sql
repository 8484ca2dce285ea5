-- Schema drift: what the API sent that a stream did not expect (issue 27). Idempotent.
CREATE TABLE IF NOT EXISTS _glacier_drift (
  stream     VARCHAR NOT NULL,
  path       VARCHAR NOT NULL,
  kind       VARCHAR NOT NULL,
  first_run  VARCHAR NOT NULL,
  last_run   VARCHAR NOT NULL,
  first_seen TIMESTAMPTZ NOT NULL,
  last_seen  TIMESTAMPTZ NOT NULL,
  count      BIGINT NOT NULL,
  sample     VARCHAR,
  PRIMARY KEY (stream, path, kind)
);
COMMENT ON TABLE _glacier_drift IS 'Schema drift seen by each stream, one row per (stream, JSON path, kind): new_field (a key the item schema does not declare; its values are kept in the table''s _extra column unless the stream''s contract is discard), new_enum_value (path is field=value; stored as sent), missing_field (a declared field every earlier page of the stream sent, absent from every item of a page), type_change (a mapped field of another type: the partition stopped), new_chain (a chain the API lists that the config does not name). first_run/last_run: pipeline run ids; count: items (pages for missing_field, runs for new_chain) it was seen in; sample: one value as sent (JSON text). Written in the same transaction as the rows of the pages that carried it.';

-- The baseline of missing_field drift: per partition, the declared top-level fields it has seen and whether every item sent them.
CREATE TABLE IF NOT EXISTS _glacier_stream_fields (
  scope      VARCHAR NOT NULL,
  path       VARCHAR NOT NULL,
  items      BIGINT NOT NULL,
  always     BOOLEAN NOT NULL,
  first_run  VARCHAR NOT NULL,
  PRIMARY KEY (scope, path)
);
COMMENT ON TABLE _glacier_stream_fields IS 'The baseline of missing_field drift in _glacier_drift: per partition (scope: partition id; ''chains'' for the API''s chain list), each declared top-level item field seen, over how many items (counted up to 50), and whether every one of them sent it (always). A field sent by every one of at least 50 items, then absent from every item of a page a sync reads, is missing_field drift.';
