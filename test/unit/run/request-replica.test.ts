// Tests that a live run of `serve --replicas` keeps, on each LIST and WATCH request record of the
// run model (src/run/fold/lists.ts, src/run/fold/watch-requests.ts), the replica that served it,
// and that a run of one server has none. No upstream counterpart.
import * as assert from 'assert';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { liveRunHeader } from './live-run-header-fixture';

const pods = '/api/v1/namespaces/default/pods';

describe('the replica of each request in the run model (serve --replicas)', () => {
  const cases: [string, number | undefined][] = [
    ['replica 2 of 3', 2],
    ['a server of one', undefined],
  ];
  for (const [name, replica] of cases)
    it(name, () => {
      const b = new RunModelBuilder(liveRunHeader());
      const served = replica === undefined ? {} : { replica };
      b.addInput(10, {
        action: 'list',
        id: 'list-1',
        requestId: 1,
        request: pods,
        via: 'delegator',
        client: 'kubectl/v1.35.2',
        connection: 'c1',
        ...served,
      });
      b.addInput(12, {
        action: 'list-end',
        id: 'list-1',
        requestId: 1,
        status: 200,
        items: 0,
        resourceVersion: '5',
        continue: '',
      });
      b.addInput(20, {
        action: 'watch',
        client: 'kubectl/v1.35.2',
        requestId: 2,
        request: `${pods}?watch=true&resourceVersion=5`,
        connection: 'c1',
        ...served,
      });
      const model = b.finish();
      const list = model.lists.find((l) => l.id === 'list-1');
      assert.ok(list, 'the LIST is recorded');
      assert.strictEqual(list.replica, replica, `${name}: the LIST`);
      assert.strictEqual(model.watchRequests?.[0].replica, replica, `${name}: the WATCH`);
      assert.strictEqual('replica' in list, replica !== undefined, `${name}: no replica key`);
    });
});
