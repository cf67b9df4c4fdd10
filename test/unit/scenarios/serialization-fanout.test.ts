// Tests for src/scenarios/serialization-fanout.ts against release-1.36 caching_object.go and
// setCachingObjects (reference notes §6): one encoding per event per encoder identifier, every
// other delivery a cache hit; a DELETE's previous object gets the delete's RV (one lazy deep copy);
// no invalidations.
import * as assert from 'assert';
import { resolveParams, runScenario } from '../../../src/scenarios/runner';

describe('scenario serialization-fanout', () => {
  const cases: Array<{ name: string; watchers: number; contentTypes: string; events: number }> = [
    {
      name: 'json and protobuf, 10 watchers, 9 events',
      watchers: 10,
      contentTypes: 'json,protobuf',
      events: 9,
    },
    { name: 'json only', watchers: 7, contentTypes: 'json', events: 6 },
    {
      name: 'one watcher, two types offered: only json is used',
      watchers: 1,
      contentTypes: 'json,protobuf',
      events: 6,
    },
    {
      name: 'protobuf twice in the list is still one identifier',
      watchers: 6,
      contentTypes: 'protobuf,protobuf',
      events: 5,
    },
    { name: '300 watchers', watchers: 300, contentTypes: 'protobuf,json', events: 12 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { model, summary } = await runScenario('serialization-fanout', {
        watchers: c.watchers,
        contentTypes: c.contentTypes,
        events: c.events,
      });
      const used = new Set(c.contentTypes.split(',').slice(0, c.watchers)).size;
      const deletes = Math.floor(c.events / 3);
      const s = model.serialization;
      assert.strictEqual(model.dispatch?.events, c.events, `${c.name}: dispatched`);
      assert.strictEqual(Object.keys(s.perIdentifier).length, used, `${c.name}: identifiers`);
      assert.strictEqual(
        s.encodes,
        c.events * used,
        `${c.name}: one encoding per event per identifier`,
      );
      assert.strictEqual(
        s.hits,
        c.events * (c.watchers - used),
        `${c.name}: every other delivery a hit`,
      );
      for (const e of s.perEvent) {
        for (const [id, t] of Object.entries(e.perIdentifier))
          assert.strictEqual(t.encodes, 1, `${c.name}: rv ${e.rv} ${id}`);
      }
      assert.strictEqual(s.lazyDeepCopies, deletes, `${c.name}: one lazy deep copy per DELETE`);
      assert.strictEqual(s.invalidations, 0, c.name);
      assert.deepStrictEqual(
        [summary.facts.encodesPerEventMin, summary.facts.encodesPerEventMax],
        [used, used],
        c.name,
      );
    });
  }

  it('rejects content types it does not know, naming the parameter', () => {
    assert.throws(
      () => resolveParams('serialization-fanout', { contentTypes: 'json,yaml' }),
      /parameter "contentTypes" expects a comma-separated list of json and protobuf, got "yaml"/,
    );
    assert.throws(
      () => resolveParams('serialization-fanout', { contentTypes: '' }),
      /parameter "contentTypes"/,
    );
  });
});
