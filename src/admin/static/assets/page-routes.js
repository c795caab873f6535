// @ts-check
// Routes (operators): the upstream providers and every route with its state now, as this instance sees
// it (cool-downs learned from the rest of the fleet included): the tables of routes-tables.js. Refresh
// reads again.
import { api } from './api.js';
import { refreshingPage } from './layout.js';
import { routesTables } from './routes-tables.js';

/** @param {import('./app.js').PageContext} ctx */
export async function routesPage(ctx) {
  await refreshingPage(ctx, 'Routes', async () => routesTables(await api('GET', '/routes'), 'h2'));
}
