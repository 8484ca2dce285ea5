/** An error caused by the user's input; the CLI prints its message alone, on one line. */
export class UserError extends Error {
  override name = 'UserError';
}
