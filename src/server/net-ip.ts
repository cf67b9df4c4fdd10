// Mirrors k8s.io/utils/net ParseIPSloppy and ParseCIDRSloppy (Go 1.16's net.ParseIP and
// net.ParseCIDR, which allow leading zeros in IPv4 parts), with what Go's net/netip ParseAddr and
// ParsePrefix refuse beyond them (leading zeros, IPv4-mapped IPv6): the strict half of
// apimachinery's util/validation/ip.go (release-1.36). Deliberate difference: an address is bytes
// only as far as the validators need (its family, and the checks of net.IP's Is* methods).

/** A parsed address: 4 bytes for IPv4 (and IPv4-mapped IPv6, as Go's To4), else 16. */
export interface ParsedIP {
  bytes: number[];
  /** Written as IPv6 (with ':'), even when it maps an IPv4 address. */
  v6Form: boolean;
  /** What netip.ParseAddr would refuse: a part with a leading zero. */
  leadingZero: boolean;
}

/** dtoi's rule for one decimal IPv4 part: digits only, at most 255. */
function parseIPv4Parts(s: string): { bytes: number[]; leadingZero: boolean } | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let leadingZero = false;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    if (p.length > 1 && p.startsWith('0')) leadingZero = true;
    bytes.push(n);
  }
  return { bytes, leadingZero };
}

function parseIPv6(s: string): { bytes: number[]; leadingZero: boolean } | undefined {
  let leadingZero = false;
  let tail: number[] = [];
  let body = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4Parts(s.slice(lastColon + 1));
    if (!v4) return undefined;
    leadingZero = v4.leadingZero;
    tail = v4.bytes;
    // The embedded IPv4 address stands for the last two groups.
    body = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return undefined;
    words = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    words = head;
  }
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 255);
  if (tail.length > 0) bytes.splice(12, 4, ...tail);
  return { bytes, leadingZero };
}

/** netutils.ParseIPSloppy: undefined when `s` is no address (zones are refused, as Go's ParseIP). */
export function parseIPSloppy(s: string): ParsedIP | undefined {
  if (s.includes(':')) {
    if (s.includes('%')) return undefined;
    const v6 = parseIPv6(s);
    if (!v6) return undefined;
    const b = v6.bytes;
    const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
    return { bytes: mapped ? b.slice(12) : b, v6Form: true, leadingZero: v6.leadingZero };
  }
  const v4 = parseIPv4Parts(s);
  return v4 && { bytes: v4.bytes, v6Form: false, leadingZero: v4.leadingZero };
}

/** netutils.IsIPv6String: an address that is not IPv4 (nor IPv4-mapped). */
export function isIPv6String(s: string): boolean {
  return parseIPSloppy(s)?.bytes.length === 16;
}

/** addr.Is4In6(): IPv6 text of an IPv4-mapped address. */
export const is4In6 = (ip: ParsedIP): boolean => ip.v6Form && ip.bytes.length === 4;

/** net.IP.IsUnspecified, IsLoopback, IsLinkLocalUnicast, IsLinkLocalMulticast. */
export function ipKind(ip: ParsedIP): {
  unspecified: boolean;
  loopback: boolean;
  linkLocalUnicast: boolean;
  linkLocalMulticast: boolean;
} {
  const b = ip.bytes;
  if (b.length === 4)
    return {
      unspecified: b.every((x) => x === 0),
      loopback: b[0] === 127,
      linkLocalUnicast: b[0] === 169 && b[1] === 254,
      linkLocalMulticast: b[0] === 224 && b[1] === 0 && b[2] === 0,
    };
  return {
    unspecified: b.every((x) => x === 0),
    loopback: b.slice(0, 15).every((x) => x === 0) && b[15] === 1,
    linkLocalUnicast: b[0] === 0xfe && (b[1] & 0xc0) === 0x80,
    linkLocalMulticast: b[0] === 0xff && (b[1] & 0x0f) === 0x02,
  };
}

/** A parsed CIDR: its address, prefix length and what netip.ParsePrefix would say of it. */
export interface ParsedCIDR {
  ip: ParsedIP;
  bits: number;
  /** A leading zero in the address or the prefix length. */
  leadingZero: boolean;
  /** Bits set beyond the prefix length. */
  hostBits: boolean;
}

/** netutils.ParseCIDRSloppy. */
export function parseCIDRSloppy(s: string): ParsedCIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  const ip = parseIPSloppy(addr);
  if (!ip || !/^[0-9]+$/.test(mask)) return undefined;
  // Go's ParseCIDR measures the prefix against the written form (4 bytes only for dotted IPv4).
  const width = addr.includes(':') ? 128 : 32;
  const bits = Number(mask);
  if (bits > width) return undefined;
  const bytes =
    width === 128 && ip.bytes.length === 4
      ? [...new Array<number>(10).fill(0), 255, 255, ...ip.bytes]
      : ip.bytes;
  let hostBits = false;
  bytes.forEach((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    if ((b & (255 >> keep)) !== 0) hostBits = true;
  });
  return {
    ip,
    bits,
    leadingZero: ip.leadingZero || (mask.length > 1 && mask.startsWith('0')),
    hostBits,
  };
}
