// What a caught value says, for a log field or a one-line reason: its message when it is an Error.
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
