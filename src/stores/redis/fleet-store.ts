// The one Redis connection a gateway instance has, with the prefix every key it writes starts with.
// The rate limits, the spend budgets and the failure throttles all count through it.
import type { GuardedRedis } from './guarded-redis.js';

export interface FleetStore {
  readonly redis: GuardedRedis;
  readonly prefix: string;
}
