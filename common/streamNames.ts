/**
 * A stream's name, e.g. "evm.blocks". The one list of streams is the stream catalog
 * (activities/streams/catalog.ts, STREAM_NAMES there): the kernel only carries names, so adding a
 * stream touches no shared file. Names from outside are checked against the catalog where they
 * enter: the worker when it loads a config (worker/config.ts), the CLI before it runs a command
 * given --streams (cli/main.ts).
 */
export type StreamName = string;
