// Reads the provider's whole models list, page by page.
import type { ModelInfo, ModelsPage } from '../../dialects/anthropic/wire.js';
import { ANTHROPIC } from '../../dialects/anthropic/api.js';
import type { UpstreamClient } from '../../upstream/client.js';
import { builtRequestHeaders } from './headers.js';

const MAX_PAGES = 20;

export async function fetchLiveModels(upstream: UpstreamClient, apiKey: string | null): Promise<ModelInfo[]> {
  const all: ModelInfo[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = after === null ? '?limit=1000' : `?limit=1000&after_id=${encodeURIComponent(after)}`;
    const res = await upstream.request({
      method: 'GET',
      path: ANTHROPIC.modelsPath + query,
      headers: builtRequestHeaders(null, apiKey),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`models list answered ${res.statusCode}`);
    const body = JSON.parse(text) as ModelsPage;
    all.push(...body.data.filter((m) => typeof m?.id === 'string'));
    if (!body.has_more || body.last_id === null) break;
    after = body.last_id;
  }
  return all;
}
