// Tests for src/server/served-resources.ts: every served resource's engine is built from the storage table
// (src/request/resource-storage.ts): its key prefix, its scope (a CRD's own), its watch cache.
import * as assert from 'assert';
import { ServedResources } from '../../../src/server/served-resources';
import { resourceStorage } from '../../../src/request/resource-storage';
import type { CustomResourceDefinition } from '../../../src/server/crd';

const widgets: CustomResourceDefinition = {
  name: 'widgets.example.com',
  group: 'example.com',
  version: 'v1',
  plural: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: false,
  shortNames: [],
  categories: [],
  printerColumns: [],
};

describe('ServedResources reads the storage table', () => {
  it('each served resource: key prefix, scope and watch cache as the table (a CRD its own scope)', () => {
    const resources = new ServedResources({ crds: [widgets], seed: 1 });
    try {
      for (const r of resources.all) {
        const storage = resourceStorage(r);
        const name = `${r.group || 'core'}/${r.resource}`;
        assert.strictEqual(r.engine.resourcePrefix, `/${storage.prefix}`, name);
        assert.strictEqual(r.engine.namespaced, storage.namespaced ?? r.namespaced, name);
        assert.strictEqual(r.namespaced, storage.namespaced ?? r.namespaced, name);
        assert.strictEqual(r.engine.watchCacheEnabled, storage.watchCache, name);
      }
      const crd = resources.find('example.com', 'v1', 'widgets');
      assert.strictEqual(crd?.engine.namespaced, false, 'a cluster-scoped CRD');
    } finally {
      resources.stop();
    }
  });
});
