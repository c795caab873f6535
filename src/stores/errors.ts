// One error type for every way opening or using the database can fail, with a message fit for one stderr line.

export class DatabaseError extends Error {
  override name = 'DatabaseError';
}
