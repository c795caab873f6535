// A setting the gateway cannot start with; its message is the one line printed on stderr.
export class ConfigError extends Error {
  override name = 'ConfigError';
}
