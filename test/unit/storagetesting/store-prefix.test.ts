// Port of TestPrefix (k8s.io/apiserver pkg/storage/etcd3/store_test.go, release-1.36; master is the
// same; the cacher has no such test): the configured etcd prefix is normalised as path.Join("/",
// prefix) plus a trailing "/".
import * as assert from 'assert';
import { newMemoryEtcd3Store } from './store-under-test';

describe('TestPrefix', () => {
  const testcases: Record<string, string> = {
    'custom/prefix': '/custom/prefix/',
    '/custom//prefix//': '/custom/prefix/',
    '/registry': '/registry/',
  };
  for (const [configuredPrefix, effectivePrefix] of Object.entries(testcases)) {
    it(`etcd3: ${JSON.stringify(configuredPrefix)} -> ${JSON.stringify(effectivePrefix)}`, () => {
      const s = newMemoryEtcd3Store({ pathPrefix: configuredPrefix });
      assert.strictEqual(
        s.store.pathPrefix,
        effectivePrefix,
        `configured prefix of ${configuredPrefix}, expected effective prefix of ${effectivePrefix}, got ${s.store.pathPrefix}`,
      );
      s.stop();
    });
  }
});
