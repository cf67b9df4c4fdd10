// Tests for net-ip.ts: k8s.io/utils/net ParseIPSloppy/ParseCIDRSloppy (Go 1.16's net.ParseIP and
// ParseCIDR) and what netip's strict parsers refuse beyond them, as the cases of
// apimachinery's util/validation/ip_test.go name them.
import * as assert from 'assert';
import {
  ipKind,
  is4In6,
  isIPv6String,
  parseCIDRSloppy,
  parseIPSloppy,
} from '../../../src/server/net-ip';

describe('server/net-ip', () => {
  const ips: Array<[string, 'invalid' | 4 | 6, { leadingZero?: boolean; mapped?: boolean }?]> = [
    ['1.2.3.4', 4],
    ['010.096.0.1', 4, { leadingZero: true }],
    ['1.2.3', 'invalid'],
    ['1.2.3.256', 'invalid'],
    ['1.2.3.4 ', 'invalid'],
    ['abc', 'invalid'],
    ['2001:db8::1', 6],
    ['::', 6],
    ['::1', 6],
    ['1:2:3:4:5:6:7:8', 6],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
    ['1::2::3', 'invalid'],
    ['fe80::1%eth0', 'invalid'],
    ['12345::1', 'invalid'],
    ['::ffff:1.2.3.4', 4, { mapped: true }],
    ['::1.2.3.4', 6],
    ['::ffff:01.2.3.4', 4, { mapped: true, leadingZero: true }],
  ];
  for (const [text, family, extra] of ips)
    it(`ParseIPSloppy(${JSON.stringify(text)})`, () => {
      const ip = parseIPSloppy(text);
      if (family === 'invalid') return assert.strictEqual(ip, undefined);
      assert.ok(ip);
      assert.strictEqual(ip.bytes.length, family === 4 ? 4 : 16);
      assert.strictEqual(isIPv6String(text), family === 6);
      assert.strictEqual(ip.leadingZero, extra?.leadingZero ?? false);
      assert.strictEqual(is4In6(ip), extra?.mapped ?? false);
    });

  const kinds: Array<[string, string]> = [
    ['0.0.0.0', 'unspecified'],
    ['127.1.2.3', 'loopback'],
    ['169.254.1.1', 'linkLocalUnicast'],
    ['224.0.0.5', 'linkLocalMulticast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocalUnicast'],
    ['ff02::1', 'linkLocalMulticast'],
    ['192.0.2.1', ''],
    ['2001:db8::1', ''],
  ];
  for (const [text, kind] of kinds)
    it(`the kind of ${text}`, () => {
      const k = ipKind(parseIPSloppy(text)!);
      const set = Object.entries(k)
        .filter(([, v]) => v)
        .map(([n]) => n);
      assert.deepStrictEqual(set, kind === '' ? [] : [kind]);
    });

  const cidrs: Array<[string, 'invalid' | { leadingZero: boolean; hostBits: boolean }]> = [
    ['10.0.0.0/8', { leadingZero: false, hostBits: false }],
    ['10.0.0.1/8', { leadingZero: false, hostBits: true }],
    ['10.0.0.0/08', { leadingZero: true, hostBits: false }],
    ['010.0.0.0/8', { leadingZero: true, hostBits: false }],
    ['10.0.0.0/33', 'invalid'],
    ['10.0.0.0', 'invalid'],
    ['2001:db8::/64', { leadingZero: false, hostBits: false }],
    ['2001:db8::1/64', { leadingZero: false, hostBits: true }],
    ['2001:db8::/129', 'invalid'],
    ['0.0.0.0/0', { leadingZero: false, hostBits: false }],
  ];
  for (const [text, want] of cidrs)
    it(`ParseCIDRSloppy(${JSON.stringify(text)})`, () => {
      const cidr = parseCIDRSloppy(text);
      if (want === 'invalid') return assert.strictEqual(cidr, undefined);
      assert.ok(cidr);
      assert.deepStrictEqual({ leadingZero: cidr.leadingZero, hostBits: cidr.hostBits }, want);
    });
});
