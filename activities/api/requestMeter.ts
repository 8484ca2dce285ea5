/**
 * What a caller's requests cost, attempt by attempt. The client adds to the meter a call carries;
 * the sync core keeps one per batch (and one for planning), so CU spent on retries and 429s is
 * seen beside the CU the walk itself needed.
 */
export interface RequestMeter {
  /** HTTP attempts sent. */
  requests: number;
  /** CU charged: the weight of every attempt answered with anything but 429. */
  cu: number;
  /** Attempts answered 429 (not charged, but each one is a request the budget should have avoided). */
  rejected429: number;
}

export const newMeter = (): RequestMeter => ({ requests: 0, cu: 0, rejected429: 0 });
