// One error type for every way opening or using the database can fail, with a message fit for one stderr line.

export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

/**
 * A store call that failed because the database did not answer (refused, timed out, lost the connection), as
 * opposed to one it refused: callers answer 503 and retry later rather than 500.
 */
export class StoreUnavailableError extends DatabaseError {
  override name = 'StoreUnavailableError';
}
