// A set of IP addresses and CIDR ranges, IPv4 and IPv6 (e.g. `10.0.0.0/8,fd00::/8,192.0.2.7`), matched
// by Node's own BlockList, which also matches an IPv4-mapped IPv6 address (`::ffff:10.1.2.3`, how a
// dual-stack socket reports an IPv4 peer) against IPv4 ranges. Parsed once; `has` is what a request pays.
import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

export class AddressRanges {
  /** The entries as written, for display and for tests. */
  readonly entries: readonly string[];
  readonly #list = new BlockList();

  private constructor(entries: readonly string[]) {
    this.entries = entries;
    for (const entry of entries) addEntry(this.#list, entry);
  }

  /** The comma-separated list; throws an Error naming the first entry that is neither an address nor a range. */
  static parse(list: string): AddressRanges {
    return new AddressRanges(list.split(',').map((s) => s.trim()).filter((s) => s !== ''));
  }

  static readonly none: AddressRanges = new AddressRanges([]);

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /** Whether the address is one of the entries or inside one of the ranges; false for anything that is not an address. */
  has(address: string): boolean {
    const family = familyOf(address);
    return family !== null && this.#list.check(address, family);
  }
}

function familyOf(address: string): Family | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

function addEntry(list: BlockList, entry: string): void {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = familyOf(address);
  if (family === null) throw new Error(`"${entry}" is not an IP address or a CIDR range`);
  if (slash === -1) {
    list.addAddress(address, family);
    return;
  }
  const prefixText = entry.slice(slash + 1);
  const prefix = Number(prefixText);
  const longest = family === 'ipv4' ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefixText) || prefix > longest) throw new Error(`"${entry}" has a prefix length outside 0-${longest}`);
  list.addSubnet(address, prefix, family);
}
