import t from 'tap';
import { newRequestId } from '../../../src/observability/request-id.js';

t.test('request ids: req_ + 32 hex digits, unique across pool refills', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = newRequestId();
    if (!/^req_[0-9a-f]{32}$/.test(id)) t.fail(`bad shape: ${id}`);
    seen.add(id);
  }
  t.equal(seen.size, 5000, 'no repeats over ~20 refills of the random pool');
  t.match(newRequestId('req_proxy_'), /^req_proxy_[0-9a-f]{32}$/);
});
