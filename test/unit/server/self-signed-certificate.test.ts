// The serving certificate's serial number: a DER INTEGER OpenSSL accepts for every random draw
// (one certificate in 512 had a padded serial, and the server failed to start with "illegal
// padding").
import * as assert from 'assert';
import { X509Certificate } from 'node:crypto';
import {
  generateSelfSignedCertKey,
  serialNumber,
} from '../../../src/server/self-signed-certificate';

describe('self-signed-certificate serialNumber', () => {
  // [name, first two random bytes]
  const cases: Array<[string, number, number]> = [
    ['a zero first byte, then one below 0x80 (was padding)', 0x00, 0x05],
    ['a zero first byte, then one above 0x7f', 0x00, 0x85],
    ['a first byte with its top bit set (was negative)', 0xff, 0x00],
    ['0x80 then zero', 0x80, 0x00],
    ['a plain positive first byte', 0x12, 0x34],
  ];
  for (const [name, b0, b1] of cases) {
    it(name, () => {
      const random = Buffer.alloc(16, 0xaa);
      random[0] = b0;
      random[1] = b1;
      const serial = serialNumber(random);
      assert.strictEqual(serial.length, 16);
      assert.ok(serial[0] >= 0x40 && serial[0] < 0x80, `first byte ${serial[0].toString(16)}`);
      assert.deepStrictEqual(serial.subarray(1), random.subarray(1));
    });
  }

  it('the certificate parses and names its serial as the 16 bytes', () => {
    const cert = new X509Certificate(generateSelfSignedCertKey(Date.now()).cert);
    assert.match(cert.serialNumber, /^[4-7][0-9A-F]{31}$/);
    assert.strictEqual(cert.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1');
  });
});
