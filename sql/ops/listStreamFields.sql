SELECT scope, path, items, always FROM _glacier_stream_fields;
