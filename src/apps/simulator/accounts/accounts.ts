// Who may call the simulator: provider accounts (by API key), Bedrock accounts (by access key or
// Bedrock API key) and Vertex service accounts (by client email). Each is an Account: its own rate
// limits and prompt cache, named by an id that faults and the control endpoint use.
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { AccountOptions, AnthropicAccountOptions, BedrockAccountOptions, VertexAccountOptions } from '../types.js';
import { PromptCache } from './prompt-cache.js';
import { AccountLimits, type RateLimitOptions } from './rate-limits.js';

export type AccountKind = 'anthropic' | 'bedrock' | 'vertex';

function checkLimits(id: string, limits: RateLimitOptions | undefined): void {
  for (const [name, value] of Object.entries(limits ?? {})) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new Error(`simulator account ${id}: ${name} must be a positive number`);
  }
}

export class Account {
  readonly limits: AccountLimits;
  readonly cache = new PromptCache();

  constructor(
    readonly id: string,
    readonly kind: AccountKind,
    limits: RateLimitOptions | undefined,
  ) {
    checkLimits(id, limits);
    this.limits = new AccountLimits(limits);
  }

  reset(): void {
    this.limits.reset();
    this.cache.clear();
  }
}

export class BedrockAccount extends Account {
  readonly region: string;

  constructor(
    id: string,
    readonly options: BedrockAccountOptions,
  ) {
    super(id, 'bedrock', options.limits);
    this.region = options.region ?? 'us-east-1';
  }
}

export class VertexAccount extends Account {
  readonly publicKey: KeyObject;
  readonly tokenLifetimeSeconds: number;

  constructor(
    id: string,
    readonly options: VertexAccountOptions,
  ) {
    super(id, 'vertex', options.limits);
    this.publicKey = createPublicKey(options.publicKey);
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3599;
  }
}

/** The id of the one account a simulator without `accounts` has. */
export const DEFAULT_ACCOUNT_ID = 'default';

export class AccountSet {
  private readonly byId = new Map<string, Account>();
  private readonly anthropicByKey = new Map<string, Account>();
  private readonly bedrockByAccessKey = new Map<string, BedrockAccount>();
  private readonly bedrockByApiKey = new Map<string, BedrockAccount>();
  private readonly vertexByEmail = new Map<string, VertexAccount>();
  /** Without `accounts`: the one account, and the key it wants (undefined: any). */
  private readonly fallback: Account | null;
  private fallbackKey: string | undefined;

  constructor(options: AccountOptions, apiKey: string | undefined) {
    const anthropic = options.accounts ?? [];
    anthropic.forEach((a: AnthropicAccountOptions, i) => {
      const account = this.add(new Account(a.id ?? `anthropic-${i + 1}`, 'anthropic', a.limits));
      if (typeof a.apiKey !== 'string' || a.apiKey === '') throw new Error(`simulator account ${account.id}: apiKey must be a non-empty string`);
      this.anthropicByKey.set(a.apiKey, account);
    });
    this.fallback = options.accounts === undefined ? this.add(new Account(DEFAULT_ACCOUNT_ID, 'anthropic', undefined)) : null;
    this.fallbackKey = apiKey;
    (options.bedrock ?? []).forEach((b, i) => {
      const account = this.add(new BedrockAccount(b.id ?? `bedrock-${i + 1}`, b));
      if (b.accessKeyId !== undefined) {
        if (b.secretAccessKey === undefined) throw new Error(`simulator account ${account.id}: accessKeyId needs secretAccessKey`);
        this.bedrockByAccessKey.set(b.accessKeyId, account);
      }
      if (b.apiKey !== undefined) this.bedrockByApiKey.set(b.apiKey, account);
      if (b.accessKeyId === undefined && b.apiKey === undefined) throw new Error(`simulator account ${account.id}: give accessKeyId and secretAccessKey, or apiKey`);
    });
    (options.vertex ?? []).forEach((v, i) => {
      const account = this.add(new VertexAccount(v.id ?? `vertex-${i + 1}`, v));
      this.vertexByEmail.set(v.clientEmail, account);
    });
  }

  private add<A extends Account>(account: A): A {
    if (this.byId.has(account.id)) throw new Error(`simulator account ids must be unique: ${account.id} is given twice`);
    this.byId.set(account.id, account);
    return account;
  }

  /** The `apiKey` option of a simulator without `accounts` (setOptions may change it). */
  setDefaultKey(apiKey: string | undefined): void {
    this.fallbackKey = apiKey;
  }

  /** The provider account a credential selects, or null when it selects none. */
  anthropic(credential: string): Account | null {
    if (this.fallback !== null) return this.fallbackKey === undefined || credential === this.fallbackKey ? this.fallback : null;
    return this.anthropicByKey.get(credential) ?? null;
  }

  bedrockByKeyId(accessKeyId: string): BedrockAccount | null {
    return this.bedrockByAccessKey.get(accessKeyId) ?? null;
  }

  bedrockByBearer(apiKey: string): BedrockAccount | null {
    return this.bedrockByApiKey.get(apiKey) ?? null;
  }

  vertex(clientEmail: string): VertexAccount | null {
    return this.vertexByEmail.get(clientEmail) ?? null;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Refills the limits and empties the cache of one account, or of all. */
  reset(id?: string): void {
    if (id === undefined) for (const a of this.byId.values()) a.reset();
    else this.byId.get(id)?.reset();
  }
}
