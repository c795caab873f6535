// The Messages API on the wire: its paths, its version and credential headers, the response headers worth
// returning. Shared by the anthropic provider (src/providers/anthropic) and the translators that speak it.

export const ANTHROPIC = Object.freeze({
  messagesPath: '/v1/messages',
  countTokensPath: '/v1/messages/count_tokens',
  modelsPath: '/v1/models',
  versionHeader: 'anthropic-version',
  /** The specification's name for the version header; accepted from clients, never sent upstream. */
  versionHeaderAlias: 'vendor-version',
  defaultVersion: '2023-06-01',
  betaHeader: 'anthropic-beta',
  credentialHeader: 'x-api-key',
  /** Response headers worth returning to a messages-surface client. */
  passBackHeaders: Object.freeze(['content-type', 'request-id', 'retry-after', 'retry-after-ms', 'x-should-retry']),
});
