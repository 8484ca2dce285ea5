SELECT seq, epoch(verified_at)::BIGINT AS verified_at FROM _glacier_verify_state WHERE kind = 'changed';
