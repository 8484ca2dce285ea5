INSERT OR REPLACE INTO _glacier_verify_state (kind, seq, verified_at) VALUES ('changed', $1, to_timestamp($2));
