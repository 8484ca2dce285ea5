SELECT stream, path FROM _glacier_stream_fields;
