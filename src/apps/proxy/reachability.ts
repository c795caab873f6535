// Logs the gateway going away and coming back once per change, not once per request.
import type { Logger } from '../../observability/logger.js';
import type { UpstreamFailureKind } from '../../upstream/client.js';

export class GatewayReachability {
  private down = false;

  constructor(private readonly logger: Logger) {}

  failed(kind: UpstreamFailureKind, code: string | undefined): void {
    if (!this.down) this.logger.warn({ kind, code }, 'the gateway cannot be reached; clients get 502 until it answers again');
    else this.logger.debug({ kind, code }, 'the gateway is still unreachable');
    this.down = true;
  }

  answered(): void {
    if (this.down) this.logger.info('the gateway answers again');
    this.down = false;
  }
}
