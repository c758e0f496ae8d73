/**
 * A field of an operation's input the caller got wrong, named as they wrote it (`urls[3].url`):
 * the operation's own check of its input, which every door answers as a 400 naming the field.
 */
export class InputError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}
