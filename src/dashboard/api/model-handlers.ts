// The catalogue, for the allowed-models choice when creating a key.
import type { Catalogue } from '../../catalog/catalogue.js';
import type { ApiRoute } from './types.js';
import { ok } from './types.js';

export function modelRoutes(catalogue: Catalogue): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/models',
      access: 'signed-in',
      handler: async () => ok({ models: catalogue.list().map((m) => ({ id: m.id, displayName: m.displayName })) }),
    },
  ];
}
