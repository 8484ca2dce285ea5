"""What pyiceberg reads of an Iceberg lake: every table of a namespace, scanned to Arrow and written as
Parquet into a directory (icebergServer.ts readWithPyiceberg copies them into DuckDB).
  python icebergRead.py <catalog uri> <warehouse> <namespace> <out dir> <as-of epoch ms or -> <S3 endpoint URL or ->
Credentials, when the lake has them, come from GLACIER_ICEBERG_TOKEN or GLACIER_ICEBERG_CLIENT_ID/SECRET;
an S3 warehouse's from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_REGION (path-style at the endpoint given)."""
import json, os, sys
import pyarrow.parquet as pq
from pyiceberg.catalog import load_catalog

uri, warehouse, namespace, out, as_of, s3 = sys.argv[1:7]
props = {}
if s3 != "-":
    props.update({"s3.endpoint": s3, "s3.access-key-id": os.environ["AWS_ACCESS_KEY_ID"], "s3.secret-access-key": os.environ["AWS_SECRET_ACCESS_KEY"],
                  "s3.region": os.environ.get("AWS_REGION", "us-east-1"), "s3.force-virtual-addressing": "false"})
if os.environ.get("GLACIER_ICEBERG_TOKEN"):
    props["token"] = os.environ["GLACIER_ICEBERG_TOKEN"]
elif os.environ.get("GLACIER_ICEBERG_CLIENT_ID"):
    props["credential"] = f'{os.environ["GLACIER_ICEBERG_CLIENT_ID"]}:{os.environ["GLACIER_ICEBERG_CLIENT_SECRET"]}'
catalog = load_catalog("lake", type="rest", uri=uri, warehouse=warehouse, **props)
tables = []
for ident in catalog.list_tables(namespace):
    table = catalog.load_table(ident)
    if as_of == "-":
        arrow = table.scan().to_arrow()
    else:
        snapshot = table.snapshot_as_of_timestamp(int(as_of))
        if snapshot is None:  # the table had no snapshot yet then
            continue
        arrow = table.scan(snapshot_id=snapshot.snapshot_id).to_arrow()
    pq.write_table(arrow, os.path.join(out, f"{ident[-1]}.parquet"))
    tables.append(ident[-1])
print(json.dumps({"tables": tables}))
