// No upstream counterpart as code: kube-apiserver makes a self-signed serving certificate when it
// is given none (k8s.io/client-go/util/cert GenerateSelfSignedCertKey). Ours is an ECDSA P-256
// certificate for 127.0.0.1 and localhost, valid a year, its own CA (the kubeconfig trusts it),
// written as DER by hand because Node can sign but not build X.509. It exists because client-go (clientcmd's getUserIdentificationPartialConfig)
// sends a bearer token only over TLS: kubectl would never authenticate to a plain-http server.
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface ServingCertificate {
  /** PEM. */
  cert: string;
  /** PEM (PKCS#8). */
  key: string;
}

/** A fresh self-signed serving certificate for 127.0.0.1 and localhost, valid from `now` (ms since the epoch). */
export function generateSelfSignedCertKey(now: number): ServingCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const ecdsaWithSHA256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('listwatch')))));
  const serial = serialNumber(randomBytes(16));
  const subjectAltName = seq(
    tlv(0x82, Buffer.from('localhost')), // [2] dNSName
    tlv(0x87, Buffer.from([127, 0, 0, 1])), // [7] iPAddress
  );
  // The kubeconfig trusts this certificate as its own authority, so it carries what RFC 5280
  // asks of a CA certificate (4.2.1.9 critical basicConstraints CA:TRUE, 4.2.1.3 keyUsage with
  // keyCertSign, 4.2.1.2 subjectKeyIdentifier), which strict verifiers check.
  const critical = tlv(0x01, Buffer.from([0xff]));
  const extensions = seq(
    seq(oid('2.5.29.19'), critical, tlv(0x04, seq(tlv(0x01, Buffer.from([0xff]))))),
    // digitalSignature (bit 0) and keyCertSign (bit 5): 0x84, the 2 low bits unused.
    seq(oid('2.5.29.15'), critical, tlv(0x04, tlv(0x03, Buffer.from([0x02, 0x84])))),
    // RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits (the key's last 65 bytes).
    seq(
      oid('2.5.29.14'),
      tlv(0x04, tlv(0x04, createHash('sha1').update(spki.subarray(-65)).digest())),
    ),
    seq(oid('2.5.29.17'), tlv(0x04, subjectAltName)),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version v3
    tlv(0x02, serial),
    ecdsaWithSHA256,
    name,
    seq(utcTime(now - 60_000), utcTime(now + 365 * 24 * 3600_000)),
    name,
    spki,
    tlv(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ecdsaWithSHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return {
    cert: pem('CERTIFICATE', der),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * Random bytes as a DER INTEGER's content: positive (top bit clear) and minimal (a first byte of 0
 * followed by one below 0x80 is padding OpenSSL refuses: "asn1 encoding routines::illegal
 * padding", one certificate in 512 before).
 */
export function serialNumber(random: Buffer): Buffer {
  const serial = Buffer.from(random);
  serial[0] = (serial[0] & 0x7f) | 0x40;
  return serial;
}

function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const len =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, value]);
}

function seq(...items: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

function set(...items: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const base128 = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime `YYMMDDHHMMSSZ` (valid until 2049, which a year from now is). */
function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString(); // 2026-12-01T13:52:33.000Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    'Z';
  return tlv(0x17, Buffer.from(text));
}

function pem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}
