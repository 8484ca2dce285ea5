#!/usr/bin/env bash
# Provides the pinned Temporal CLI (which embeds the dev server) and prints its path on stdout.
# Order: $TEMPORAL_CLI_PATH, then `temporal` on PATH, then the per-user cache, then `go install`
# into that cache, then (machines with internet, no Go) the official release archive.
# Idempotent: a second run with the binary cached returns at once.
set -euo pipefail

VERSION="1.5.1"
CACHE_ROOT="${GLACIER_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/glacier-etl}"
DEST_DIR="$CACHE_ROOT/temporal-v$VERSION"
DEST="$DEST_DIR/temporal"

log() { echo "install-temporal: $*" >&2; }

if [[ -n "${TEMPORAL_CLI_PATH:-}" ]]; then
  if [[ -x "$TEMPORAL_CLI_PATH" ]]; then echo "$TEMPORAL_CLI_PATH"; exit 0; fi
  log "TEMPORAL_CLI_PATH=$TEMPORAL_CLI_PATH is not an executable file"; exit 1
fi
if on_path="$(command -v temporal 2>/dev/null)"; then echo "$on_path"; exit 0; fi
if [[ -x "$DEST" ]]; then echo "$DEST"; exit 0; fi

mkdir -p "$DEST_DIR"
# Serialise concurrent installs (several clones, CI and a developer on one machine).
exec 9>"$DEST_DIR/.lock"
if ! flock -n 9; then
  log "another process is installing the temporal CLI into $DEST_DIR; waiting for it"
  flock 9
fi
if [[ -x "$DEST" ]]; then echo "$DEST"; exit 0; fi

if command -v go >/dev/null 2>&1; then
  log "building the Temporal CLI v$VERSION (it embeds the dev server) from source with \`go install\`:"
  log "  first time only, a few minutes on 2 cores; kept in $DEST_DIR for every later run and clone"
  tmp="$(mktemp -d)"
  # `go install -v` names each package as it is compiled ("go: downloading" lines come first): a
  # heartbeat reads that log and reports elapsed time, modules fetched and packages compiled.
  GOBIN="$tmp" GOFLAGS="-mod=mod" go install -v "github.com/temporalio/cli/cmd/temporal@v$VERSION" 2>"$tmp/build.log" &
  build=$!
  started=$SECONDS
  every="${GLACIER_PROGRESS_SECONDS:-10}"
  while kill -0 "$build" 2>/dev/null; do
    for ((i = 0; i < every * 2; i++)); do
      kill -0 "$build" 2>/dev/null || break
      sleep 0.5
    done
    kill -0 "$build" 2>/dev/null || break
    fetched=$(grep -c '^go: downloading' "$tmp/build.log" || true)
    compiled=$(grep -vc '^go: ' "$tmp/build.log" || true)
    last=$(grep -v '^go: ' "$tmp/build.log" | tail -n 1 || true)
    log "  $((SECONDS - started)) s: $fetched modules fetched, $compiled packages compiled${last:+ (last: $last)}"
  done
  if ! wait "$build"; then
    log "go install failed; its last lines:"
    tail -n 20 "$tmp/build.log" >&2
    rm -rf "$tmp"
    exit 1
  fi
  log "  built in $((SECONDS - started)) s ($(grep -vc '^go: ' "$tmp/build.log" || true) packages compiled)"
  mv "$tmp/temporal" "$DEST"
  rm -rf "$tmp"
else
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  arch="$(uname -m)"; case "$arch" in x86_64) arch=amd64 ;; aarch64) arch=arm64 ;; esac
  url="https://github.com/temporalio/cli/releases/download/v$VERSION/temporal_cli_${VERSION}_${os}_${arch}.tar.gz"
  log "no Go toolchain; downloading $url"
  tmp="$(mktemp -d)"
  curl -fsSL "$url" | tar -xz -C "$tmp" temporal
  mv "$tmp/temporal" "$DEST"
  rm -rf "$tmp"
fi
chmod +x "$DEST"
log "installed $("$DEST" --version 2>/dev/null | head -1) at $DEST"
echo "$DEST"
