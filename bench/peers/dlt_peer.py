"""The peer a data engineer would pick instead of glacier-etl: dlt's REST API source into DuckDB.

Run by bench/peers/run.ts (`npm run bench:peer`) inside its own venv, once per settings profile:

  python dlt_peer.py --job job.json --profile defaults|tuned --workdir DIR

job.json names the simulator's base URL and the lists to load (path and the key of the item list in
each page). Every list is paged with a cursor paginator on `nextPageToken` (sent back as
`pageToken`) at pageSize 100, as glacier-etl pages them. Profiles:

  defaults  everything else as dlt ships it (sequential resources, jsonl load files, one
            normalize worker, 5,000-item buffers)
  tuned     parallelized resources, parquet load files, 2 normalize workers,
            buffer_max_items 50,000, file_max_items 200,000

Prints one JSON line on stdout: rows loaded per list (root tables only: nested lists become child
tables, as dlt does by default) and the time of each pipeline step.
"""

import argparse
import json
import os
import sys
import time


def configure(profile: str) -> None:
    # dlt reads its configuration from the environment; set before dlt is imported.
    os.environ["RUNTIME__DLTHUB_TELEMETRY"] = "false"  # no traffic to anything but the simulator
    os.environ["RUNTIME__LOG_LEVEL"] = "WARNING"
    if profile == "tuned":
        os.environ["NORMALIZE__WORKERS"] = "2"
        os.environ["DATA_WRITER__BUFFER_MAX_ITEMS"] = "50000"
        os.environ["DATA_WRITER__FILE_MAX_ITEMS"] = "200000"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--job", required=True)
    parser.add_argument("--profile", choices=["defaults", "tuned"], required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    with open(args.job, encoding="utf8") as f:
        job = json.load(f)
    configure(args.profile)

    import dlt
    from dlt.sources.rest_api import rest_api_source

    tuned = args.profile == "tuned"
    resources = [
        {
            "name": r["table"],
            "endpoint": {"path": r["path"], "data_selector": r["listKey"], "params": {"pageSize": job["pageSize"], **r.get("params", {})}},
            **({"parallelized": True} if tuned else {}),
        }
        for r in job["lists"]
    ]
    source = rest_api_source(
        {
            "client": {
                "base_url": job["baseUrl"],
                "paginator": {"type": "cursor", "cursor_path": "nextPageToken", "cursor_param": "pageToken"},
            },
            "resources": resources,
        }
    )
    db_path = os.path.join(args.workdir, "dlt_warehouse.duckdb")
    pipeline = dlt.pipeline(
        pipeline_name=f"glacier_peer_{args.profile}",
        pipelines_dir=os.path.join(args.workdir, "pipelines"),
        destination=dlt.destinations.duckdb(db_path),
        dataset_name="glacier_peer",
    )
    started = time.perf_counter()
    steps = {}
    t = time.perf_counter()
    # The load file format is chosen at extract time (dlt 1.x); jsonl is dlt's default for DuckDB.
    pipeline.extract(source, **({"loader_file_format": "parquet"} if tuned else {}))
    steps["extract"] = time.perf_counter() - t
    t = time.perf_counter()
    pipeline.normalize()
    steps["normalize"] = time.perf_counter() - t
    t = time.perf_counter()
    pipeline.load()
    steps["load"] = time.perf_counter() - t
    total = time.perf_counter() - started

    import duckdb

    rows = {}
    with duckdb.connect(db_path, read_only=True) as con:
        for r in job["lists"]:
            rows[r["table"]] = con.execute(f'SELECT count(*) FROM glacier_peer."{r["table"]}"').fetchone()[0]
    print(json.dumps({"profile": args.profile, "rows": rows, "steps": steps, "seconds": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
