// The client-node 1.4.0 controller of client-node-controller.test.ts (controller/widget-controller.ts)
// under the faults a test scripts through the admin API (issue 26): its widgets watch stalled and
// then cut (stall-watch --then drop), alone and with the watch cache's history expired while it
// stalls (expire-history). What client-node does is read from its source (node_modules/
// @kubernetes/client-node/dist/cache.js and watch.js, and node-fetch 2.7's
// fixResponseChunkedTransferBadEnding):
// - a watch cut without its last chunk is node-fetch's "Premature close" error on the body: the
//   ListWatch's doneHandler gets an error that is not a 410, reports it through 'error' and stops
//   (no re-watch of its own); the controller starts it again as client-node's example does, and
//   start() watches from the resourceVersion it last read: a re-watch, no relist;
// - a watch from a resourceVersion older than the watch cache's history is answered 410 (a 200 and
//   an ERROR event, or the status): the ListWatch forgets its resourceVersion and lists again (a
//   relist), with no 'error'.
// Either way a Widget written during the fault, and one written after it, are reconciled. Asserted
// on what the server recorded: its audit log (each request of the controller, in order, with its
// code), its debug state (the controller's requests by resource) and its clients report (each
// fault's recovery time and how: re-watch or relist). No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { recordClientNodeTest } from './harness/clients';
import { eventually } from './harness/eventually';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';
import { WidgetController, type Widget } from './controller/widget-controller';
import type { ClientsReport } from '../../src/run/clients-report';

/** One audit.k8s.io/v1 event line, the fields read here. */
interface AuditEvent {
  auditID: string;
  stage: 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete';
  verb: string;
  requestURI: string;
  userAgent?: string;
  responseStatus?: { code: number };
}

/** A request of the controller's informer as the audit log has it: verb, resourceVersion, code. */
type InformerRequest = [verb: string, resourceVersion: string | null, code: number | undefined];

interface Case {
  name: string;
  /** expire-history once the Widget written during the stall is in the watch cache. */
  expireHistory: boolean;
  /** The informer's requests, with R for the first LIST's resourceVersion. */
  requests: (listRV: string) => (string | RegExp | null | number | undefined)[][];
  /** What the informer reported through 'error' (client-node's messages). */
  informerErrors: string[];
  /** Each fault that touched the informer, and how the clients report says it recovered. */
  recoveries: [name: string, by: 'rewatch' | 'relist'][];
  /** LISTs and WATCHes of widgets the debug state counts for the controller. */
  counts: { lists: number; watches: number };
}

const widgets = 'widgets.example.com';
// The stall is long enough for the test to write a Widget and expire the history inside it (a
// few requests); the fault's own length, not a limit on the test.
const stallSeconds = 3;

const cases: Case[] = [
  {
    name: 'stall-watch --then drop: client-node reports Premature close, is started again and re-watches from the last resourceVersion it read (no relist)',
    expireHistory: false,
    requests: (rv) => [
      ['list', null, 200],
      ['watch', rv, 200],
      ['watch', rv, 200],
    ],
    informerErrors: ['Premature close'],
    recoveries: [['stall-watch', 'rewatch']],
    counts: { lists: 1, watches: 2 },
  },
  {
    name: 'stall-watch --then drop with expire-history during the stall: the re-watch from the last resourceVersion gets 410, and client-node relists',
    expireHistory: true,
    requests: (rv) => [
      ['list', null, 200],
      ['watch', rv, 200],
      // The 410 is an ERROR event in a 200 (the cacher's watch from a too old resourceVersion).
      ['watch', rv, 200],
      ['list', null, 200],
      ['watch', /^\d+$/, 200],
    ],
    informerErrors: ['Premature close'],
    recoveries: [
      ['stall-watch', 'relist'],
      ['expire-history', 'relist'],
    ],
    counts: { lists: 2, watches: 3 },
  },
];

describe('the client-node 1.4.0 controller under scripted watch faults (stall-watch --then drop, expire-history)', function () {
  for (const c of cases) {
    describe(c.name, function () {
      let serve: ServeProcess;
      let controller: WidgetController;
      let auditLog: string;

      before(async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-controller-faults-'));
        auditLog = path.join(dir, 'audit.log');
        serve = await ServeProcess.start([
          '--crd',
          path.join(projectRoot(), 'test', 'fixtures', 'widget-crd.yaml'),
          '--audit-log',
          auditLog,
          '--clients-report',
        ]);
      });
      beforeEach(() => recordClientNodeTest());
      after(async () => {
        await controller?.stop();
        if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code');
        fs.rmSync(path.dirname(auditLog), { recursive: true, force: true });
      });

      const widgetPath = (name = '') =>
        `/apis/example.com/v1/namespaces/${serve.namespace}/widgets${name ? `/${name}` : ''}`;
      const createWidget = (name: string) =>
        serve.json<Widget>('POST', widgetPath(), 201, {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name },
          spec: { greeting: name },
        });
      const ready = (name: string) =>
        eventually(async () => {
          const w = await serve.json<Widget>('GET', widgetPath(name), 200);
          assert.strictEqual(
            w.status?.conditions?.find((x) => x.type === 'Ready')?.status,
            'True',
            `${name} not reconciled; the controller's errors: ${controller.errors.join('; ')}; its informer's: ${controller.informerErrors.join('; ')}; its requests: ${JSON.stringify(informerRequests())}`,
          );
          await serve.json(
            'GET',
            `/api/v1/namespaces/${serve.namespace}/configmaps/${name}-config`,
            200,
          );
        }, 100);
      /** The informer's requests, from the audit log: verb, resourceVersion, final code. */
      const informerRequests = (): InformerRequest[] => {
        const byId = new Map<string, AuditEvent[]>();
        for (const line of fs.readFileSync(auditLog, 'utf8').split('\n')) {
          if (!line) continue;
          const e = JSON.parse(line) as AuditEvent;
          const url = new URL(e.requestURI, 'http://audit');
          if (url.pathname !== widgetPath() || !/^node-fetch\//.test(e.userAgent ?? '')) continue;
          if (e.verb !== 'list' && e.verb !== 'watch') continue;
          byId.set(e.auditID, [...(byId.get(e.auditID) ?? []), e]);
        }
        return [...byId.values()].map((stages) => {
          const url = new URL(stages[0].requestURI, 'http://audit');
          const answered = stages.filter((s) => s.responseStatus).at(-1);
          return [
            stages[0].verb,
            url.searchParams.get('resourceVersion'),
            answered?.responseStatus?.code,
          ];
        });
      };

      it("the fault hits the informer's first watch; a Widget written during it and one written after it are reconciled; the audit log and the debug state show how it recovered", async () => {
        const stall = await serve.fault<{ id: number }>('stall-watch', {
          seconds: stallSeconds,
          then: 'drop',
          match: { verb: 'watch', resource: widgets, userAgent: 'node-fetch' },
          trigger: { count: 1 },
        });
        controller = new WidgetController({
          kubeconfig: serve.info.kubeconfig,
          namespace: serve.namespace,
          identity: 'manager-a',
          group: 'example.com',
          version: 'v1',
          plural: 'widgets',
          leaseName: 'widget-controller',
        });
        await controller.start();
        // The informer watches; the stall holds what follows.
        await eventually(() =>
          assert.deepStrictEqual(
            informerRequests().map((r) => r[0]),
            ['list', 'watch'],
          ),
        );
        await createWidget('during-fault');
        if (c.expireHistory) {
          const expired = await serve.fault<{ resources: { resource: string }[] }>(
            'expire-history',
            {
              resource: widgets,
            },
          );
          assert.deepStrictEqual(
            expired.resources.map((r) => r.resource),
            [widgets],
          );
        }
        // Still inside the stall: nothing reached the controller, and its watch is the first one.
        assert.deepStrictEqual(controller.reconciled, []);
        assert.deepStrictEqual(
          informerRequests().map((r) => r[0]),
          ['list', 'watch'],
          'the stall outlasted the writes',
        );

        await ready('during-fault');
        await createWidget('after-fault');
        await ready('after-fault');
        assert.deepStrictEqual(controller.reconciled, ['during-fault', 'after-fault']);
        assert.deepStrictEqual(controller.errors, []);
        assert.deepStrictEqual(
          controller.informerErrors.map((e) => (e as Error).message),
          c.informerErrors,
        );
        assert.strictEqual(controller.informerRestarts, c.informerErrors.length);

        const got = informerRequests();
        const listRV = String(got[1]?.[1]);
        const want = c.requests(listRV);
        assert.strictEqual(got.length, want.length, JSON.stringify(got));
        got.forEach((r, i) =>
          want[i].forEach((w, j) =>
            w instanceof RegExp
              ? assert.match(String(r[j]), w, `request ${i}: ${JSON.stringify(got)}`)
              : assert.strictEqual(r[j], w, `request ${i}: ${JSON.stringify(got)}`),
          ),
        );

        const state = await serve.state();
        const client = state.clients.find((x) => /^node-fetch\//.test(x.userAgent));
        const counts = client?.resources[widgets];
        assert.deepStrictEqual(
          { lists: counts?.lists, watches: counts?.watches },
          c.counts,
          JSON.stringify(state.clients),
        );
        // The clients report (GET /debug/listwatch/v1/clients): the informer's client (its
        // connections one after another) was touched by each fault and recovered, as it did.
        const report = await serve.json<ClientsReport>('GET', '/debug/listwatch/v1/clients', 200);
        const informer = report.clients.filter((x) => x.faults.some((f) => f.id === stall.id));
        assert.strictEqual(informer.length, 1, JSON.stringify(report.clients));
        assert.match(informer[0].userAgent, /^node-fetch\//);
        assert.deepStrictEqual(
          informer[0].faults.map((f) => [f.name, f.recovered, f.recoveredBy]),
          c.recoveries.map(([name, by]) => [name, true, by]),
          JSON.stringify(informer[0].faults),
        );
        for (const f of informer[0].faults) {
          assert.strictEqual(typeof f.recoveryMs, 'number', f.recovery);
          assert.match(f.recovery, /^recovered in \d+ ms \((rewatch|relist)\)$/);
        }
        // Nothing reaches the informer until the stall ends: it cannot have recovered sooner.
        assert.ok(
          informer[0].faults[0].recoveryMs! >= stallSeconds * 1000,
          informer[0].faults[0].recovery,
        );
        assert.deepStrictEqual(
          { restarts: informer[0].restarts.total, relists: informer[0].relists },
          { restarts: 1, relists: c.counts.lists - 1 },
        );

        // The stall is spent (count 1): no fault is left in force.
        const active = await serve.json<{ faults: { id: number }[] }>(
          'GET',
          '/debug/listwatch/v1/faults/active',
          200,
        );
        assert.strictEqual(
          active.faults.some((f) => f.id === stall.id),
          false,
        );
      });
    });
  }
});
