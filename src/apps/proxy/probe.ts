// One call at start so a wrong URL or key shows up in the terminal at once, not at the first request.
// It lists the models the key may use: cheap, authenticated, and never reaches the provider.
import type { Logger } from '../../observability/logger.js';
import { CHAT_PREFIX } from '../../gateway/surfaces.js';
import type { UpstreamClient } from '../../upstream/client.js';
import { classifyUpstreamFailure } from '../../upstream/client.js';

export type ProbeResult = 'accepted' | 'refused' | 'unexpected' | 'unreachable';

export async function probeGateway(client: UpstreamClient, gatewayKey: string, logger: Logger): Promise<ProbeResult> {
  let status: number;
  try {
    const res = await client.request({ method: 'GET', path: `${CHAT_PREFIX}/models`, headers: { authorization: `Bearer ${gatewayKey}` } });
    status = res.statusCode;
    await res.body.dump();
  } catch (err) {
    logger.warn({ kind: classifyUpstreamFailure(err) }, 'the gateway cannot be reached yet; clients get 502 until it answers');
    return 'unreachable';
  }
  if (status === 200) {
    logger.info('the gateway answers and accepts the key');
    return 'accepted';
  }
  if (status === 401) {
    logger.warn({ status }, 'the gateway refuses the key (unknown, revoked or expired): every request will get 401');
    return 'refused';
  }
  logger.warn({ status }, 'the gateway answered the start-up check unexpectedly; check the --gateway URL');
  return 'unexpected';
}
