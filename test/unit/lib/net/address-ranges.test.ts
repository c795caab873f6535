// Addresses and CIDR ranges of both families, as GATEWAY_TRUSTED_PROXIES lists them.
import t from 'tap';
import { AddressRanges } from '../../../../src/lib/net/address-ranges.js';

const LIST = '10.0.0.0/8, 192.168.1.7 ,fd00::/8,2001:db8::1,172.16.0.0/12';

t.test('membership, table-driven', async (t) => {
  const ranges = AddressRanges.parse(LIST);
  const cases: Array<[string, boolean, string]> = [
    ['10.0.0.0', true, 'the first address of a range'],
    ['10.255.255.255', true, 'the last address of a range'],
    ['11.0.0.0', false, 'one past the range'],
    ['9.255.255.255', false, 'one before the range'],
    ['192.168.1.7', true, 'a plain address'],
    ['192.168.1.8', false, 'next to a plain address'],
    ['172.31.255.254', true, 'inside a /12'],
    ['172.32.0.1', false, 'outside the /12'],
    ['::ffff:10.1.2.3', true, 'an IPv4-mapped IPv6 address against an IPv4 range'],
    ['::ffff:192.168.1.7', true, 'an IPv4-mapped IPv6 address against a plain IPv4 address'],
    ['::ffff:11.1.2.3', false, 'an IPv4-mapped address outside'],
    ['fd00::1', true, 'inside an IPv6 range'],
    ['fdff:ffff::1', true, 'the end of an IPv6 /8'],
    ['fe00::1', false, 'outside the IPv6 range'],
    ['2001:db8::1', true, 'a plain IPv6 address'],
    ['2001:0db8:0000::0001', true, 'the same IPv6 address written in full'],
    ['2001:db8::2', false, 'next to a plain IPv6 address'],
    ['unknown', false, 'not an address'],
    ['10.0.0.1:443', false, 'an address with a port is not an address'],
    ['', false, 'empty'],
  ];
  for (const [address, expected, why] of cases) t.equal(ranges.has(address), expected, `${address}: ${why}`);
  t.same(ranges.entries, ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '2001:db8::1', '172.16.0.0/12'], 'entries as written, trimmed');
  t.notOk(ranges.isEmpty);
});

t.test('an empty list matches nothing', async (t) => {
  for (const list of ['', ' ', ',,']) {
    const ranges = AddressRanges.parse(list);
    t.ok(ranges.isEmpty, JSON.stringify(list));
    t.notOk(ranges.has('127.0.0.1'));
  }
  t.ok(AddressRanges.none.isEmpty);
});

t.test('/0 matches its whole family', async (t) => {
  const all4 = AddressRanges.parse('0.0.0.0/0');
  t.ok(all4.has('203.0.113.9'));
  t.notOk(all4.has('2001:db8::9'), 'an IPv4 range never matches a plain IPv6 address');
});

t.test('an entry that is neither an address nor a range is refused, naming it', async (t) => {
  const bad: Array<[string, RegExp]> = [
    ['10.0.0.0/33', /"10\.0\.0\.0\/33" has a prefix length outside 0-32/],
    ['fd00::/129', /"fd00::\/129" has a prefix length outside 0-128/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/8/8', /prefix length/],
    ['10.0.0.0/ 8', /prefix length/],
    ['lb.internal', /"lb\.internal" is not an IP address or a CIDR range/],
    ['10.0.0.256', /not an IP address/],
    ['10.0.0.1, nope', /"nope"/],
  ];
  for (const [list, message] of bad) t.throws(() => AddressRanges.parse(list), { message }, list);
});
