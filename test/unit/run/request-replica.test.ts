// Tests that a live run of `serve --replicas` keeps, on each LIST and WATCH request record of the
// run model (src/run/fold/lists.ts, src/run/fold/watch-requests.ts), the replica that served it,
// as the Clients view's clients and the clients report show it, and that a run of one server has
// none. No upstream counterpart.
import * as assert from 'assert';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { liveRunHeader } from './live-run-header-fixture';
import { clientsReport } from '../../../src/run/clients-report';

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
      // The Clients view's client (client-records.ts) and the clients report say it too.
      const client = model.clients?.find((c) => c.client === 'kubectl/v1.35.2');
      assert.deepStrictEqual(
        client?.requests.map((r) => [r.kind, r.replica]),
        [
          ['list', replica],
          ['watch', replica],
        ],
      );
      const reported = clientsReport(model).clients.find((c) => c.userAgent === 'kubectl/v1.35.2');
      assert.deepStrictEqual(
        reported?.requests.map((r) => [r.verb, r.replica]),
        [
          ['list', replica],
          ['watch', replica],
        ],
      );
    });
});
