INSERT OR REPLACE INTO _glacier_meta VALUES ($1, $2);
