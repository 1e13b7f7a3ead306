/**
 * The network a visitor's address stands for, as one string: an IPv4 address itself (/32), an
 * IPv6 address's /64 prefix (one household or phone: providers hand out a /64 or more, so the
 * addresses inside it are the same visitor's for the asking). IPv4-mapped IPv6 addresses
 * (::ffff:192.0.2.1) are their IPv4 address. Anything else (no address, a local tool's name)
 * stands for itself, lower-cased and bounded.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

function ipv4Octets(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((n) => n <= 255) ? octets : null;
}

function groupsOf(part: string): number[] | null {
  if (part === "") return [];
  const groups: number[] = [];
  const pieces = part.split(":");
  for (const [i, piece] of pieces.entries()) {
    // An embedded IPv4 address may end the text (::ffff:192.0.2.1, 64:ff9b::192.0.2.1).
    const v4 = i === pieces.length - 1 ? ipv4Octets(piece) : null;
    if (v4) groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    else if (HEXTET.test(piece)) groups.push(parseInt(piece, 16));
    else return null;
  }
  return groups;
}

/** The eight 16-bit groups of an IPv6 address, or null when the text is not one. */
export function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** "192.0.2.1", "2001:db8:1:2::/64", or the text itself for what is not an address. */
export function addressPrefix(address: string): string {
  const text = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  const v4 = ipv4Octets(text);
  if (v4) return v4.join(".");
  const groups = ipv6Groups(text);
  if (!groups) return text.slice(0, 64);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
