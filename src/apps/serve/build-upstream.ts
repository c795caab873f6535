// The composition root's upstream side: the simulator (when no provider is configured: neither
// ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY nor the models file's `providers`), the models file, the providers with their connection pools, the translators between surfaces and providers,
// and the model catalogue.
import type { Logger } from 'pino';
import { Catalogue } from '../../catalog/catalogue.js';
import { modelsFileSettings, type ModelsFileSettings } from '../../catalog/load-models-file.js';
import { DEFAULT_MODELS } from '../../catalog/model.js';
import { PRODUCTION_NEEDS_UPSTREAM, type GatewayConfig } from '../../config/config.js';
import { ConfigError } from '../../config/config-error.js';
import { readModelsFile, type ModelsFile } from '../../config/models-file.js';
import { chatToAnthropic } from '../../dialects/translators/chat-to-anthropic/translator.js';
import { messagesToAnthropic } from '../../dialects/translators/messages-to-anthropic/translator.js';
import { Translators } from '../../dialects/translators/registry.js';
import { responsesToAnthropic } from '../../dialects/translators/responses-to-anthropic/translator.js';
import { errorMessage } from '../../lib/error-message.js';
import { buildProviders } from '../../providers/build-providers.js';
import type { Provider } from '../../providers/provider.js';
import { startSimulator, type Simulator } from '../simulator/index.js';

export interface BuiltUpstream {
  simulator: Simulator | null;
  /** True when this process started the simulator (and so stops it). */
  ownSimulator: boolean;
  /** True when answers come from the simulator: no upstream is configured anywhere. */
  simulated: boolean;
  modelsFile: ModelsFile | null;
  fileSettings: ModelsFileSettings;
  providers: Provider[];
  translators: Translators;
  catalogue: Catalogue;
}

/** `givenSimulator`: a test's own simulator, used instead of starting one. */
export async function buildUpstream(config: GatewayConfig, givenSimulator: Simulator | undefined, logger: Logger): Promise<BuiltUpstream> {
  const modelsFile = readModelsFile(config.modelsFile);
  // A models file listing providers is an upstream: the simulator would answer nothing, and the
  // gateway must not say it does (the x-gateway-upstream header, /readyz, the start-up warning).
  const simulated = config.upstreamBaseUrl === null && modelsFile?.providers === undefined;
  if (config.production && config.upstreamApiKey === null && modelsFile?.providers === undefined) throw new ConfigError(PRODUCTION_NEEDS_UPSTREAM);
  const ownSimulator = simulated && givenSimulator === undefined;
  const simulator = givenSimulator ?? (ownSimulator ? await startSimulator({ port: 0, host: '127.0.0.1' }) : null);
  const baseUrl = config.upstreamBaseUrl ?? simulator?.url ?? null;
  const upstreamKey = config.upstreamApiKey ?? (config.upstreamBaseUrl === null ? 'simulator' : null);
  try {
    const fileSettings = modelsFileSettings(modelsFile);
    const implicit = baseUrl === null ? null : { baseUrl, apiKey: upstreamKey };
    const providers = await buildProviders(
      { entries: modelsFile?.providers, path: modelsFile?.path ?? 'GATEWAY_MODELS_FILE', env: config.environment, implicit },
      {
        connections: config.upstreamConnections,
        connectTimeoutMs: config.timeouts.upstreamConnectMs,
        headersTimeoutMs: config.timeouts.upstreamHeadersMs,
        bodyTimeoutMs: config.timeouts.streamIdleMs,
      },
    );
    const translators = new Translators([messagesToAnthropic, chatToAnthropic, responsesToAnthropic]);
    translators.check(['messages', 'chat', 'responses'], providers);
    const catalogue = new Catalogue({
      defaults: DEFAULT_MODELS,
      configured: fileSettings.models,
      unpricedPrices: fileSettings.unpricedPrices,
      // The live list is the first provider's, when its type has one.
      fetchLive: providers[0]!.listModels,
      refreshMs: config.modelsRefreshMs,
      onRefreshError: (err) => logger.warn({ err: errorMessage(err) }, 'models list refresh failed; keeping the last known list'),
    });
    await catalogue.start();
    return { simulator, ownSimulator, simulated, modelsFile, fileSettings, providers, translators, catalogue };
  } catch (err) {
    // Refused at start (a one-line configuration error): the simulator started here must not keep the process alive.
    if (ownSimulator) await simulator?.close();
    throw err;
  }
}
