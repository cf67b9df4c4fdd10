// Test harness: a real HTTP server on 127.0.0.1 that routes the admin API to handleFaultRequest
// and the state to handleDebugStateRequest, as the core's ApiServer wires them (with the token),
// over real engine resources sharing one MemoryEtcd on a FakeClock.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { MemoryEtcd } from '../../../src/engine/etcd/memory-etcd';
import { EventHub } from '../../../src/engine/inspect/events';
import { RequestContexts } from '../../../src/engine/request/request-context';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { createResource, type CreateResourceOptions } from '../../../src/engine/apiserver';
import type { ServedResource } from '../../../src/server/served-resource';
import { Store } from '../../../src/server/registry/store';
import { ActiveFaults, type ActiveFaultJSON } from '../../../src/server/active-faults';
import {
  faultsPath,
  handleFaultRequest,
  type FaultDescription,
  type FaultWorld,
} from '../../../src/server/faults';
import {
  DebugState,
  debugStatePath,
  handleDebugStateRequest,
} from '../../../src/server/debug-state';

export const adminToken = 'test-token';

/** The fields of the admin API's answers that the tests read (a Status, a FaultList, a FaultResult). */
export interface Answer {
  kind: string;
  code: number;
  message: string;
  faults: FaultDescription[];
  revision: number;
  resources: Record<string, unknown>[];
  latency: Record<string, number>;
  simulated: boolean;
  unavailableForMs: number;
  gateEnabled: Record<string, unknown>[];
  terminated: Record<string, unknown>[];
  id: number;
  /** A request fault's (or a scheduled server fault's) entry in the active list. */
  active: ActiveFaultJSON;
  cleared: ActiveFaultJSON[];
}

export interface AdminServer {
  url: string;
  clock: FakeClock;
  world: FaultWorld & { etcd: MemoryEtcd };
  state: DebugState;
  hub: EventHub;
  requests: RequestContexts;
  log: string[];
  pods: ServedResource;
  configmaps: ServedResource;
  /** GET/POST with the token; the JSON answer. */
  call(method: string, path: string, body?: string): Promise<{ status: number; body: Answer }>;
  close(): Promise<void>;
}

function served(resource: string, kind: string, o: CreateResourceOptions): ServedResource {
  const r = {
    group: '',
    version: 'v1',
    resource,
    singularName: resource.slice(0, -1),
    kind,
    listKind: `${kind}List`,
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['get', 'list', 'watch'],
    jsonOnly: false,
    engine: createResource({ ...o, groupResource: { group: '', resource } }),
  };
  return Object.assign(r, { store: new Store(r, { clock: o.clock }) });
}

export async function startAdminServer(
  o: Partial<CreateResourceOptions> = {},
): Promise<AdminServer> {
  const clock = new FakeClock(0);
  const etcd = new MemoryEtcd({ clock });
  const hub = new EventHub();
  const requests = new RequestContexts();
  const metrics = new MetricsRegistry();
  const log: string[] = [];
  const rand = new SeededRandom(7);
  const base: CreateResourceOptions = {
    clock,
    rand,
    etcd,
    eventSink: hub,
    requests,
    metrics,
    log: (m) => log.push(m),
    ...o,
  };
  const pods = served('pods', 'Pod', base);
  const configmaps = served('configmaps', 'ConfigMap', base);
  const world: FaultWorld & { etcd: MemoryEtcd } = {
    resources: [pods, configmaps],
    etcd,
    log: (m) => log.push(m),
    active: new ActiveFaults(clock),
  };
  const state = new DebugState(world);
  hub.subscribe((e) => state.observe(e));
  for (const r of world.resources) r.engine.start();
  for (const r of world.resources) await r.engine.waitReady();
  await pods.engine.step(10);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, body: unknown): void => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.headers.authorization !== `Bearer ${adminToken}`) return send(401, {});
        const path = (req.url ?? '').split('?')[0];
        if (path === debugStatePath) {
          const r = handleDebugStateRequest(req.method ?? '', [state]);
          return send(r.status, r.body);
        }
        if (path === faultsPath || path.startsWith(faultsPath + '/')) {
          const name = path.slice(faultsPath.length + 1);
          const r = await handleFaultRequest(
            req.method ?? '',
            name,
            Buffer.concat(chunks).toString('utf8'),
            world,
          );
          return send(r.status, r.body);
        }
        send(404, {});
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clock,
    world,
    state,
    hub,
    requests,
    log,
    pods,
    configmaps,
    async call(method, path, body) {
      const resp = await fetch(url + path, {
        method,
        headers: { Authorization: `Bearer ${adminToken}` },
        body,
      });
      return { status: resp.status, body: (await resp.json()) as Answer };
    },
    async close() {
      for (const r of world.resources) r.engine.stop();
      etcd.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
