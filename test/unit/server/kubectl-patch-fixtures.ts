// PATCH requests captured from kubectl v1.32.4 against a throwaway server that answered discovery,
// GET of pod default/x (the `current` objects below) and 404 for /openapi/v2 and /openapi/v3 (so
// client-side apply computed its strategic merge patch from its compiled-in Pod type, and a merge
// patch for the custom resource it has no type for).
// No upstream counterpart: test data.

export interface CapturedPatch {
  command: string;
  url: string;
  contentType: string;
  body: string;
  current: object;
}

const pod1 = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: 'x',
    namespace: 'default',
    uid: 'u-1',
    resourceVersion: '5',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web' },
    annotations: {},
  },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nginx',
        ports: [{ containerPort: 80 }],
        env: [{ name: 'A', value: '1' }],
      },
    ],
  },
  status: { phase: 'Pending' },
};

const pod2 = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: 'x',
    namespace: 'default',
    uid: 'u-1',
    resourceVersion: '6',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web', tier: 'fe' },
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration':
        '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"app":"web","tier":"fe"},"name":"x","namespace":"default"},"spec":{"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"image":"nginx:1.27","name":"c","ports":[{"containerPort":80},{"containerPort":443}]},{"image":"busybox","name":"side"}]}}\n',
    },
  },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nginx:1.27',
        ports: [
          { containerPort: 80, protocol: 'TCP' },
          { containerPort: 443, protocol: 'TCP' },
        ],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'side', image: 'busybox' },
    ],
  },
  status: { phase: 'Pending' },
};

const pod3 = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: 'x',
    namespace: 'default',
    uid: 'u-1',
    resourceVersion: '6',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web' },
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration':
        '{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{},"labels":{"app":"web"},"name":"x","namespace":"default"},"spec":{"containers":[{"env":[{"name":"A","value":"1"}],"image":"nginx:1.28","name":"c","ports":[{"containerPort":80}],"volumeMounts":[{"mountPath":"/data","name":"data"}]}],"nodeSelector":{"disk":"ssd"},"volumes":[{"emptyDir":{},"name":"data"}]}}\n',
    },
  },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nginx:1.28',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        env: [{ name: 'A', value: '1' }],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
    nodeSelector: { disk: 'ssd' },
  },
  status: { phase: 'Pending' },
};

export const kubectlPatches: Record<string, CapturedPatch> = {
  'label a=b': {
    command: 'kubectl label pod x a=b',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-label',
    contentType: 'application/merge-patch+json',
    body: '{"metadata":{"labels":{"a":"b"}}}',
    current: pod1,
  },
  'label app-': {
    command: 'kubectl label pod x app-',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-label',
    contentType: 'application/merge-patch+json',
    body: '{"metadata":{"labels":{"app":null}}}',
    current: pod1,
  },
  'label --resource-version': {
    command: 'kubectl label pod x a=b --resource-version=5',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-label',
    contentType: 'application/merge-patch+json',
    body: '{"metadata":{"labels":{"a":"b"},"resourceVersion":"5"}}',
    current: pod1,
  },
  annotate: {
    command: 'kubectl annotate pod x note=hi',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-annotate',
    contentType: 'application/merge-patch+json',
    body: '{"metadata":{"annotations":{"note":"hi"}}}',
    current: pod1,
  },
  apply1: {
    command: 'kubectl apply -f pod.yaml (first apply of a pod created without --save-config)',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-client-side-apply&fieldValidation=Ignore',
    contentType: 'application/strategic-merge-patch+json',
    body: '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Pod\\",\\"metadata\\":{\\"annotations\\":{},\\"labels\\":{\\"app\\":\\"web\\",\\"tier\\":\\"fe\\"},\\"name\\":\\"x\\",\\"namespace\\":\\"default\\"},\\"spec\\":{\\"containers\\":[{\\"env\\":[{\\"name\\":\\"A\\",\\"value\\":\\"1\\"},{\\"name\\":\\"B\\",\\"value\\":\\"2\\"}],\\"image\\":\\"nginx:1.27\\",\\"name\\":\\"c\\",\\"ports\\":[{\\"containerPort\\":80},{\\"containerPort\\":443}]},{\\"image\\":\\"busybox\\",\\"name\\":\\"side\\"}]}}\\n"},"labels":{"tier":"fe"}},"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"side"}],"containers":[{"$setElementOrder/env":[{"name":"A"},{"name":"B"}],"$setElementOrder/ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"B","value":"2"}],"image":"nginx:1.27","name":"c","ports":[{"containerPort":443}]},{"image":"busybox","name":"side"}]}}',
    current: pod1,
  },
  apply2: {
    command:
      'kubectl apply -f pod-v2.yaml (drops container side, env B, port 443, label tier; adds a volume)',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-client-side-apply&fieldValidation=Ignore',
    contentType: 'application/strategic-merge-patch+json',
    body: '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Pod\\",\\"metadata\\":{\\"annotations\\":{},\\"labels\\":{\\"app\\":\\"web\\"},\\"name\\":\\"x\\",\\"namespace\\":\\"default\\"},\\"spec\\":{\\"containers\\":[{\\"env\\":[{\\"name\\":\\"A\\",\\"value\\":\\"1\\"}],\\"image\\":\\"nginx:1.28\\",\\"name\\":\\"c\\",\\"ports\\":[{\\"containerPort\\":80}],\\"volumeMounts\\":[{\\"mountPath\\":\\"/data\\",\\"name\\":\\"data\\"}]}],\\"nodeSelector\\":{\\"disk\\":\\"ssd\\"},\\"volumes\\":[{\\"emptyDir\\":{},\\"name\\":\\"data\\"}]}}\\n"},"labels":{"tier":null}},"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"$setElementOrder/env":[{"name":"A"}],"$setElementOrder/ports":[{"containerPort":80}],"env":[{"$patch":"delete","name":"B"}],"image":"nginx:1.28","name":"c","ports":[{"$patch":"delete","containerPort":443}],"volumeMounts":[{"mountPath":"/data","name":"data"}]},{"$patch":"delete","name":"side"}],"nodeSelector":{"disk":"ssd"},"volumes":[{"emptyDir":{},"name":"data"}]}}',
    current: pod2,
  },
  apply3: {
    command: 'kubectl apply -f pod-v3.yaml (volume data: emptyDir -> hostPath)',
    url: '/api/v1/namespaces/default/pods/x?fieldManager=kubectl-client-side-apply&fieldValidation=Ignore',
    contentType: 'application/strategic-merge-patch+json',
    body: '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Pod\\",\\"metadata\\":{\\"annotations\\":{},\\"labels\\":{\\"app\\":\\"web\\"},\\"name\\":\\"x\\",\\"namespace\\":\\"default\\"},\\"spec\\":{\\"containers\\":[{\\"env\\":[{\\"name\\":\\"A\\",\\"value\\":\\"1\\"}],\\"image\\":\\"nginx:1.28\\",\\"name\\":\\"c\\",\\"ports\\":[{\\"containerPort\\":80}],\\"volumeMounts\\":[{\\"mountPath\\":\\"/data\\",\\"name\\":\\"data\\"}]}],\\"nodeSelector\\":{\\"disk\\":\\"ssd\\"},\\"volumes\\":[{\\"hostPath\\":{\\"path\\":\\"/srv\\"},\\"name\\":\\"data\\"}]}}\\n"}},"spec":{"$setElementOrder/volumes":[{"name":"data"}],"volumes":[{"$retainKeys":["hostPath","name"],"emptyDir":null,"hostPath":{"path":"/srv"},"name":"data"}]}}',
    current: pod3,
  },
  'apply widget': {
    command:
      'kubectl apply -f widget.yaml (a custom resource: with no schema kubectl falls back to a merge patch)',
    url: '/apis/example.com/v1/namespaces/default/widgets/w?fieldManager=kubectl-client-side-apply&fieldValidation=Ignore',
    contentType: 'application/merge-patch+json',
    body: '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"example.com/v1\\",\\"kind\\":\\"Widget\\",\\"metadata\\":{\\"annotations\\":{},\\"name\\":\\"w\\",\\"namespace\\":\\"default\\"},\\"spec\\":{\\"size\\":2,\\"tags\\":[\\"b\\"]}}\\n"}},"spec":{"size":2,"tags":["b"]}}',
    current: {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default', uid: 'u-w', resourceVersion: '3' },
      spec: { size: 1, tags: ['a'] },
    },
  },
};
