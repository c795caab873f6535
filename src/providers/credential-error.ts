// A provider could not make an attempt's request itself: no access token (its token endpoint refused
// or could not be reached), a signature that could not be made. The router counts it as the route's
// credential failing and moves on to another route; nothing was sent.
export class CredentialError extends Error {
  override name = 'CredentialError';
}
