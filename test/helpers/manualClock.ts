/**
 * A clock that moves only when the test moves it (the simulator's `clock` option): what it drives
 * (quota days, rate-limit windows, page-token ages) cannot depend on how fast the machine runs.
 */
export class ManualClock {
  constructor(private ms: number) {}

  /** Milliseconds since epoch; pass it as `clock` (bound, so it can be handed around). */
  readonly now = (): number => this.ms;

  set(ms: number): void {
    this.ms = ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
