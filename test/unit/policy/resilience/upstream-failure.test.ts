// Each way an upstream call can fail, as the client's error code and the metric label.
import t from 'tap';
import type { UpstreamFailureKind } from '../../../../src/upstream/client.js';
import { upstreamErrorKindOf, upstreamFailureError } from '../../../../src/policy/resilience/upstream-failure.js';

const TABLE: ReadonlyArray<[Exclude<UpstreamFailureKind, 'cancelled'>, string, number, string]> = [
  ['connect', 'upstream_unreachable', 502, 'connect'],
  ['reset', 'upstream_unreachable', 502, 'reset'],
  ['timeout', 'upstream_timeout', 504, 'timeout'],
  ['stalled', 'upstream_timeout', 504, 'timeout'],
  ['cut', 'upstream_bad_response', 502, 'protocol'],
];

t.test('a failure kind maps to one client error and one metric label', async (t) => {
  for (const [kind, code, status, label] of TABLE) {
    const error = upstreamFailureError(kind);
    t.equal(error.code, code, `${kind}: error code`);
    t.equal(error.status, status, `${kind}: status`);
    t.equal(upstreamErrorKindOf(kind), label, `${kind}: metric label`);
  }
});
