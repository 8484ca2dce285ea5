/**
 * Runs async tasks one at a time. The warehouse has one writer connection and DuckDB transactions on
 * one connection cannot interleave, so concurrent batches (several partitions in flight) queue here.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
