import t from 'tap';
import { clientAddress } from '../../../../src/policy/ratelimit/client-address.js';

const trusted = new Set(['10.0.0.1', '10.0.0.2']);

t.test('clientAddress', async (t) => {
  const cases: Array<[string, string | undefined, string | string[] | undefined, ReadonlySet<string>, string | undefined]> = [
    ['no trusted proxies: the peer, whatever the header says', '1.2.3.4', '9.9.9.9', new Set(), '1.2.3.4'],
    ['an untrusted peer cannot claim another address', '1.2.3.4', '9.9.9.9', trusted, '1.2.3.4'],
    ['a trusted peer: the last hop it saw', '10.0.0.1', '9.9.9.9', trusted, '9.9.9.9'],
    ['client-written hops on the left are ignored', '10.0.0.1', '6.6.6.6, 9.9.9.9', trusted, '9.9.9.9'],
    ['chains of trusted proxies are skipped', '10.0.0.1', '9.9.9.9, 10.0.0.2', trusted, '9.9.9.9'],
    ['IPv4-mapped peer', '::ffff:10.0.0.1', '9.9.9.9', trusted, '9.9.9.9'],
    ['repeated headers', '10.0.0.1', ['6.6.6.6', '9.9.9.9'], trusted, '9.9.9.9'],
    ['a trusted peer without the header', '10.0.0.1', undefined, trusted, '10.0.0.1'],
    ['only trusted or empty hops', '10.0.0.1', ' , 10.0.0.2', trusted, '10.0.0.1'],
    ['no peer', undefined, '9.9.9.9', trusted, undefined],
  ];
  for (const [name, peer, xff, set, expected] of cases) t.equal(clientAddress(peer, xff, set), expected, name);
});
