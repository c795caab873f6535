// The regular-expression source of one well-formed JSON string literal, quotes included: every
// escape one of \" \\ \/ \b \f \n \r \t \uXXXX, no raw control character, no unpaired surrogate (it
// would not survive UTF-8 encoding). The alternatives start with different characters, so a match
// never backtracks into them; irregexp's backtracking stack still grows with the length, so callers
// bound the input. Without the u flag the classes are UTF-16 code units, which the surrogate checks need.
export const JSON_STRING_LITERAL =
  '"(?:[^"\\\\\\x00-\\x1f\\ud800-\\udfff]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4}|[\\ud800-\\udbff][\\udc00-\\udfff])*"';
