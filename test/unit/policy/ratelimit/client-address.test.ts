import t from 'tap';
import { AddressRanges } from '../../../../src/lib/net/address-ranges.js';
import { clientAddress } from '../../../../src/policy/ratelimit/client-address.js';

const trusted = AddressRanges.parse('10.0.0.1, 10.0.0.2');
const ranges = AddressRanges.parse('10.0.0.0/8,fd00::/8');

t.test('clientAddress', async (t) => {
  const cases: Array<[string, string | undefined, string | string[] | undefined, AddressRanges, string | undefined]> = [
    ['no trusted proxies: the peer, whatever the header says', '1.2.3.4', '9.9.9.9', AddressRanges.none, '1.2.3.4'],
    ['an untrusted peer cannot claim another address', '1.2.3.4', '9.9.9.9', trusted, '1.2.3.4'],
    ['a trusted peer: the last hop it saw', '10.0.0.1', '9.9.9.9', trusted, '9.9.9.9'],
    ['client-written hops on the left are ignored', '10.0.0.1', '6.6.6.6, 9.9.9.9', trusted, '9.9.9.9'],
    ['chains of trusted proxies are skipped', '10.0.0.1', '9.9.9.9, 10.0.0.2', trusted, '9.9.9.9'],
    ['IPv4-mapped peer', '::ffff:10.0.0.1', '9.9.9.9', trusted, '9.9.9.9'],
    ['repeated headers', '10.0.0.1', ['6.6.6.6', '9.9.9.9'], trusted, '9.9.9.9'],
    ['a trusted peer without the header', '10.0.0.1', undefined, trusted, '10.0.0.1'],
    ['only trusted or empty hops', '10.0.0.1', ' , 10.0.0.2', trusted, '10.0.0.1'],
    ['no peer', undefined, '9.9.9.9', trusted, undefined],
    ['a peer inside a trusted range', '10.44.3.2', '9.9.9.9', ranges, '9.9.9.9'],
    ['an IPv4-mapped peer inside an IPv4 range', '::ffff:10.44.3.2', '9.9.9.9', ranges, '9.9.9.9'],
    ['an IPv6 peer inside an IPv6 range', 'fd12:3456::1', '2001:db8::7', ranges, '2001:db8::7'],
    ['hops inside the ranges are skipped', '10.1.1.1', '9.9.9.9, fd00::2, 10.9.9.9', ranges, '9.9.9.9'],
    ['a peer just outside the range', '11.0.0.1', '9.9.9.9', ranges, '11.0.0.1'],
    ['a hop that is not an address is the client, never trusted', '10.1.1.1', '9.9.9.9, unknown', ranges, 'unknown'],
  ];
  for (const [name, peer, xff, set, expected] of cases) t.equal(clientAddress(peer, xff, set), expected, name);
});
