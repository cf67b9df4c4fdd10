// Tests for src/server/defaults/core-v1-defaults.ts (kubernetes pkg/apis/core/v1/defaults.go,
// release-1.36, and its defaults_test.go cases): the image tag that picks imagePullPolicy
// (parsers.ParseImageName), SetDefaults_Service by type, and the Secret's stringData merge.
import * as assert from 'assert';
import {
  imageTag,
  setDefaultsContainer,
  setDefaultsSecret,
  setDefaultsService,
} from '../../../../src/server/defaults/core-v1-defaults';

type Loose = Record<string, unknown>;

describe('server/defaults/core-v1-defaults', () => {
  it('imageTag and imagePullPolicy: Always only for latest (named or implied)', () => {
    const cases: Array<[string, string, string]> = [
      ['nginx', 'latest', 'Always'],
      ['nginx:latest', 'latest', 'Always'],
      ['nginx:1.27', '1.27', 'IfNotPresent'],
      ['localhost:5000/nginx', 'latest', 'Always'],
      ['localhost:5000/nginx:1.27', '1.27', 'IfNotPresent'],
      ['nginx@sha256:' + 'a'.repeat(64), '', 'IfNotPresent'],
      ['nginx:1.27@sha256:' + 'a'.repeat(64), '1.27', 'IfNotPresent'],
    ];
    for (const [image, tag, policy] of cases) {
      assert.strictEqual(imageTag(image), tag, image);
      const c: Loose = { name: 'c', image };
      setDefaultsContainer(c);
      assert.strictEqual(c.imagePullPolicy, policy, image);
    }
  });

  it('SetDefaults_Service by type', () => {
    const cases: Array<[string, Loose, Loose]> = [
      [
        'ClusterIP',
        { ports: [{ port: 80 }] },
        {
          type: 'ClusterIP',
          sessionAffinity: 'None',
          internalTrafficPolicy: 'Cluster',
          ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        },
      ],
      [
        'a named targetPort is kept',
        { ports: [{ port: 80, targetPort: 'http', protocol: 'UDP' }] },
        {
          type: 'ClusterIP',
          sessionAffinity: 'None',
          internalTrafficPolicy: 'Cluster',
          ports: [{ port: 80, targetPort: 'http', protocol: 'UDP' }],
        },
      ],
      [
        'LoadBalancer',
        { type: 'LoadBalancer', ports: [{ port: 80 }] },
        {
          type: 'LoadBalancer',
          sessionAffinity: 'None',
          externalTrafficPolicy: 'Cluster',
          internalTrafficPolicy: 'Cluster',
          allocateLoadBalancerNodePorts: true,
          ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        },
      ],
      [
        'ExternalName: no traffic policies',
        { type: 'ExternalName', externalName: 'example.com' },
        { type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' },
      ],
      [
        'sessionAffinity None drops its config',
        { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } },
        { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' },
      ],
    ];
    for (const [name, spec, want] of cases) {
      const svc: Loose = { spec };
      setDefaultsService(svc);
      assert.deepStrictEqual(svc.spec, want, name);
    }
  });

  it('SetDefaults_Secret after the stringData merge', () => {
    const cases: Array<[string, Loose, Loose]> = [
      ['empty', {}, { type: 'Opaque' }],
      ['a type is kept', { type: 'kubernetes.io/tls' }, { type: 'kubernetes.io/tls' }],
      [
        'stringData overwrites data and is dropped',
        { data: { a: 'eA==', b: 'eQ==' }, stringData: { a: 'é' } },
        { data: { a: 'w6k=', b: 'eQ==' }, type: 'Opaque' },
      ],
      [
        'a __proto__ key is data',
        { stringData: { ['__proto__']: 'x' } },
        { data: JSON.parse('{"__proto__":"eA=="}') as Loose, type: 'Opaque' },
      ],
    ];
    for (const [name, secret, want] of cases) {
      setDefaultsSecret(secret);
      assert.deepStrictEqual(secret, want, name);
    }
  });
});
