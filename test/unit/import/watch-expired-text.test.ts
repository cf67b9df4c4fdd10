// Tests for src/run/watch-expired-text.ts through its readers: both upstream texts of a watch's 410
// (the watch cache's and the etcd3 store's, for events and other resources without a watch cache)
// are a 410 to the import (reflector-line.ts codeOf) and to the replay's comparison
// (logged-answer.ts watchExpiredInLog); other errors are not.
import * as assert from 'assert';
import { codeOf } from '../../../src/import/reflector-line';
import { watchExpiredInLog } from '../../../src/replay/logged-answer';
import type { ImportedRequest } from '../../../src/run/imported-request';

describe('a watch expired, in either upstream text', () => {
  const cases: Array<[string, string, number | undefined]> = [
    ['the watch cache', 'watch of *v1.Pod closed with: too old resource version: 1243 (1244)', 410],
    [
      'the etcd3 store (events)',
      'watch of *v1.Event closed with: The resourceVersion for the provided watch is too old.',
      410,
    ],
    [
      'a dropped connection',
      'watch of *v1.Event ended with: an error on the server ("unable to decode an event from the watch stream: http2: client connection lost") has prevented the request from succeeding',
      undefined,
    ],
  ];
  for (const [name, message, code] of cases)
    it(name, () => {
      assert.strictEqual(codeOf(message), code, 'codeOf');
      const r: ImportedRequest = {
        id: 'c.log:2',
        sources: [{ file: 'c.log', line: 2, format: 'client-go' }],
        verb: 'watch',
        requestURI: '/api/v1/events?resourceVersion=900&watch=true',
        userAgent: '',
        startInFile: true,
        endInFile: true,
        code: 200,
        watchEnd: { message, source: { file: 'c.log', line: 3, format: 'client-go' } },
      };
      assert.strictEqual(watchExpiredInLog(r), code === 410, 'watchExpiredInLog');
    });
});
