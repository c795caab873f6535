// Reading one entry of the models file's `providers`: each field checked where it is read, and a
// wrong one refused with one line that names the file, the entry and the field. Secrets are never in
// the file: a field such as `apiKeyEnv` names the environment variable that holds one.
import { ConfigError } from '../config/config-error.js';
import type { ProviderSettingName } from '../config/setting-names.js';

/** Looks up an environment variable named by the models file (config/ reads the environment). */
export type EnvLookup = (name: string) => string | undefined;

export class ProviderFields {
  constructor(
    private readonly entry: Readonly<Record<string, unknown>>,
    /** `<file>: providers[1] ("anthropic-b")`, the start of every message. */
    readonly where: string,
    private readonly env: EnvLookup,
  ) {}

  /** A variable of the environment a type reads by its standard name (GOOGLE_APPLICATION_CREDENTIALS, say): one of the listed settings. */
  environment(name: ProviderSettingName): string | undefined {
    return this.env(name);
  }

  fail(field: string, why: string): ConfigError {
    return new ConfigError(`${this.where}.${field}: ${why}`);
  }

  optionalString(field: string): string | null {
    const v = this.entry[field];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v.trim() === '') throw this.fail(field, `must be a non-empty string, got ${JSON.stringify(v)}`);
    return v.trim();
  }

  string(field: string): string {
    const v = this.optionalString(field);
    if (v === null) throw this.fail(field, 'is required');
    return v;
  }

  /** An http(s) URL without a trailing slash. */
  optionalUrl(field: string): string | null {
    const v = this.optionalString(field);
    if (v === null) return null;
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw this.fail(field, `is not a URL: "${v}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw this.fail(field, `must be an http(s) URL, got "${v}"`);
    return url.origin + url.pathname.replace(/\/+$/, '');
  }

  /**
   * The secret in the environment variable that `field` names (or `fallbackName`, a listed setting,
   * when the entry names none); null when neither is given and `required` is false.
   */
  secret(field: string, options: { fallbackName?: ProviderSettingName; required: boolean }): string | null {
    const named = this.optionalString(field);
    const name = named ?? options.fallbackName ?? null;
    if (name === null) {
      if (options.required) throw this.fail(field, 'is required: the name of the environment variable that holds the secret');
      return null;
    }
    const value = this.env(name)?.trim();
    if (value === undefined || value === '') {
      if (named === null && !options.required) return null;
      throw this.fail(field, `names the environment variable ${name}, which is not set`);
    }
    return value;
  }
}
