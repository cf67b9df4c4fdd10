// `kubectl get` of the built-in kinds with printers, with every kubectl on the machine against
// `listwatch serve`: the NAME/READY/UP-TO-DATE/... columns and cells of kube-apiserver's printers
// (pkg/printers/internalversion/printers.go), laid out by kubectl's own tabwriter, default and
// -o wide. The manifest spells out what kube-apiserver's defaulting would add (service type,
// clusterIPs, protocol, secret type, job completions), so the rows are what kube-apiserver prints
// for the same objects. AGE is the one cell that moves with the clock: it is checked as a
// seconds-old age and then written as 0s. No upstream counterpart (upstream tests kubectl in
// test/cmd against a real kube-apiserver).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';
import { projectRoot } from '../harness/paths';

const manifest = `${fs.readFileSync(path.join(projectRoot(), 'test', 'fixtures', 'deployment-web.yaml'), 'utf8')}---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: ClusterIP
  clusterIP: 10.96.0.10
  clusterIPs: [10.96.0.10]
  selector: {app: web}
  # kube-apiserver requires a name on every port of a Service with several.
  ports:
  - {name: http, port: 80, protocol: TCP}
  - {name: dns, port: 53, protocol: UDP}
---
apiVersion: v1
kind: Secret
metadata:
  name: release
type: Opaque
data:
  password: aHVudGVyMg==
  user: YWRtaW4=
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: leader
spec:
  holderIdentity: web-0
  leaseDurationSeconds: 15
---
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 1
  parallelism: 1
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: pi
        image: perl
`;

/** An Event and a RoleBinding; the event's times are 20 minutes before the test starts. */
const moreObjects = (twentyMinutesAgo: string) => `apiVersion: v1
kind: Event
metadata:
  name: web-1.scheduled
involvedObject: {kind: Pod, name: web-1, namespace: default}
reason: Scheduled
type: Normal
message: Successfully assigned default/web-1 to node-1
source: {component: default-scheduler}
firstTimestamp: ${twentyMinutesAgo}
lastTimestamp: ${twentyMinutesAgo}
count: 1
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: rb
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: alice}
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: devs}
- {kind: ServiceAccount, name: sa, namespace: default}
`;

const getEvents = `LAST SEEN   TYPE     REASON      OBJECT      MESSAGE
20m         Normal   Scheduled   pod/web-1   Successfully assigned default/web-1 to node-1
`;

const getRoleBindingsWide = `NAME   ROLE          AGE   USERS   GROUPS   SERVICEACCOUNTS
rb     Role/reader   0s    alice   devs     default/sa
`;

const getAll = `NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/web   0/2     0            0           0s

NAME          TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)         AGE
service/web   ClusterIP   10.96.0.10   <none>        80/TCP,53/UDP   0s

NAME             TYPE     DATA   AGE
secret/release   Opaque   2      0s

NAME                               HOLDER   AGE
lease.coordination.k8s.io/leader   web-0    0s

NAME           STATUS    COMPLETIONS   DURATION   AGE
job.batch/pi   Running   0/1                      0s
`;

const getDeploymentsWide = `NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS    IMAGES                               SELECTOR
web    0/2     0            0           0s    web,sidecar   registry.k8s.io/pause:3.10,busybox   app=web
`;

const getServicesWide = `NAME   TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)         AGE   SELECTOR
web    ClusterIP   10.96.0.10   <none>        80/TCP,53/UDP   0s    app=web
`;

/**
 * The output with each AGE cell (a seconds-old age under the AGE header) written as 0s, its
 * padding kept: the column is 6 wide for any age up to 999s, so the layout does not move.
 */
function withAgesZeroed(stdout: string): string {
  const out: string[] = [];
  let ageAt = -1;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('NAME')) ageAt = line.indexOf('AGE');
    const m = ageAt >= 0 ? /^(\d{1,3})s( *)/.exec(line.slice(ageAt)) : null;
    if (m === null || line.startsWith('NAME')) out.push(line);
    else {
      const rest = line.slice(ageAt + m[0].length);
      out.push(line.slice(0, ageAt) + (rest === '' ? '0s' : '0s'.padEnd(m[0].length)) + rest);
    }
  }
  return out.join('\n');
}

const kubectls = suiteKubectls();
for (const k of kubectls) describeKubectl(k);

function describeKubectl(k: Kubectl): void {
  describe(`kubectl ${k.gitVersion}: get prints kube-apiserver's printer columns`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);

    before(async () => {
      serve = await ServeProcess.start([]);
      const file = path.join(serve.dir, 'printer-objects.yaml');
      fs.writeFileSync(file, manifest);
      const c = await run(['create', '-f', file]);
      assert.strictEqual(c.code, 0, c.stderr);
      const more = path.join(serve.dir, 'printer-more-objects.yaml');
      const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      fs.writeFileSync(more, moreObjects(twentyMinutesAgo));
      const m = await run(['create', '-f', more]);
      assert.strictEqual(m.code, 0, m.stderr);
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    const cases: [args: string[], want: string][] = [
      [['get', 'deployments,services,secrets,leases,jobs'], getAll],
      [['get', 'deployments', '-o', 'wide'], getDeploymentsWide],
      [['get', 'services', '-o', 'wide'], getServicesWide],
      [['get', 'events'], getEvents],
      [['get', 'rolebindings', '-o', 'wide'], getRoleBindingsWide],
    ];
    for (const [args, want] of cases) {
      it(`kubectl ${args.join(' ')}`, async () => {
        const r = await run(args);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(withAgesZeroed(r.stdout), want);
      });
    }
  });
}
