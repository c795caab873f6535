import t from 'tap';
import { keyStatus } from '../../../src/keys/key-status.js';

const now = Date.parse('2030-05-01T10:00:00Z');

t.test('an active key is expired from its expiry on, not before', async (t) => {
  t.equal(keyStatus({ status: 'active', expiresAt: null }, now), 'active', 'no expiry');
  t.equal(keyStatus({ status: 'active', expiresAt: '2030-05-01T10:00:01Z' }, now), 'active');
  t.equal(keyStatus({ status: 'active', expiresAt: '2030-05-01T10:00:00Z' }, now), 'expired', 'at the very moment');
  t.equal(keyStatus({ status: 'active', expiresAt: '2029-01-01T00:00:00Z' }, now), 'expired');
});

t.test('a revoked key stays revoked, expired or not', async (t) => {
  t.equal(keyStatus({ status: 'revoked', expiresAt: '2029-01-01T00:00:00Z' }, now), 'revoked');
  t.equal(keyStatus({ status: 'revoked', expiresAt: null }, now), 'revoked');
});
