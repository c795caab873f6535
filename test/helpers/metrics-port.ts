// The metrics listener of a test gateway started with GATEWAY_METRICS_PORT=0, as `serve` starts it,
// closed when the test ends.
import type { Test } from 'tap';
import { listenMetrics } from '../../src/gateway/metrics-listener.js';
import type { Runtime } from '../../src/gateway/runtime.js';

/** The listener's origin, e.g. http://127.0.0.1:40123. */
export async function startMetricsPort(t: Test, runtime: Runtime): Promise<string> {
  const listener = await listenMetrics(runtime);
  if (listener === null) throw new Error('GATEWAY_METRICS_PORT is not set');
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        listener.server.closeAllConnections();
        listener.server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${listener.address.port}`;
}
