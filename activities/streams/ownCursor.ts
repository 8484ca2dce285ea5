/**
 * A stream's own part of the walk cursor (WalkCursor.stream): state that only this stream reads and
 * writes, kept in the checkpoint with the generic walk state and committed in the same transaction.
 * The generic walk (activities/sync/walk.ts) calls these hooks at fixed points and never looks inside.
 *
 * S is the part as stored (plain JSON), M the marks one page reports (StreamPage.marks).
 */
export interface OwnCursor<S = unknown, M = unknown> {
  /** A new walk of a sync: what it takes over from the stored part (of the last walk, complete or not). A backfill starts without. */
  carry(stored: S): S | undefined;
  /** One fetched page's marks folded into the part of the walk in progress. */
  fold(part: S | undefined, marks: M): S;
  /** A complete walk: what it leaves for the next walk. */
  settle(part: S): S | undefined;
  /** The part's fields as release 0.1.0 stored them, flat in the cursor: moved into the part when read. */
  flatFields: readonly string[];
}

/** The object without its undefined fields, or undefined when none is left (the part is stored as JSON). */
export function compact<S extends object>(part: S): S | undefined {
  const entries = Object.entries(part).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as S);
}

/** Both lists' entries, each once, in first-seen order. */
export const union = (a: readonly string[] | undefined, b: readonly string[]): string[] => [...new Set([...(a ?? []), ...b])];
