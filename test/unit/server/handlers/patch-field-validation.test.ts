// Tests for handlers/patch.ts and patch.ts under fieldValidation: the cases of kubernetes
// test/integration/apiserver/field_validation_test.go (testFieldValidationPatchTyped,
// testFieldValidationSMP): the patch's own duplicate fields (and a JSON patch's unknown op fields),
// then the patched object's unknown fields, refused under Strict (422, patch.go's NewInvalid of
// `patch`), Warning headers under Warn or no directive, nothing under Ignore.
import * as assert from 'assert';
import { ApiServer } from '../../../../src/server/api-server';
import { call } from '../http-client';

const deployments = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (name: string): unknown => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:latest' }] },
    },
  },
});

const mergePatchBody = `
{
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"paused": true,
		"paused": false,
		"template": {
			"spec": {
				"containers": [{
					"name": "nginx",
					"image": "nginx:latest",
					"unknownNested": "val1",
					"imagePullPolicy": "Always",
					"imagePullPolicy": "Never"
				}]
			}
		}
	}
}
	`;
const jsonPatchBody = `
			[
				{"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
				{"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
				{"op": "add", "path": "/spec/paused", "value": true},
				{"op": "add", "path": "/spec/paused", "value": false},
				{"op": "add", "path": "/spec/template/spec/containers/0/unknownNested", "value": "val1"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Always"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Never"}
			]
			`;
const nonconflictingMergePatchBody = `
{
	"spec": {
		"paused": true,
		"paused": false,
		"template": {
			"spec": {
				"containers": [{
					"name": "nginx",
					"image": "nginx:latest",
					"imagePullPolicy": "Always",
					"imagePullPolicy": "Never"
				}]
			}
		}
	}
}
			`;
const nonconflictingSMPBody = `
	{
		"spec": {
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name": "nginx",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
	`;
const smpBody = nonconflictingSMPBody
  .replace(
    '"paused": true,',
    '"unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true,',
  )
  .replace('"name": "nginx",', '"name": "nginx", "unknownNested": "val1",');

const merge = 'application/merge-patch+json';
const jsonPatch = 'application/json-patch+json';
const smp = 'application/strategic-merge-patch+json';

const allFindings = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];
const jsonPatchFindings = [
  'json patch unknown field "[0].foo"',
  'json patch duplicate field "[1].path"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknown3"',
  'unknown field "spec.unknownDupe"',
];
const duplicatesOnly = [
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const cases: Array<{
  name: string;
  contentType: string;
  body: string;
  /** The fieldValidation parameter (undefined: none sent). */
  directive?: string;
  /** Under Strict: what the 422's message ends with. */
  strictDecodingError?: string;
  /** The whole message, where the case pins it. */
  message?: string;
  warnings: string[];
}> = [
  ...[
    ['merge-patch', merge, mergePatchBody, allFindings],
    ['json-patch', jsonPatch, jsonPatchBody, jsonPatchFindings],
    ['smp', smp, smpBody, allFindings],
    ['nonconflicting-merge-patch', merge, nonconflictingMergePatchBody, duplicatesOnly],
    ['nonconflicting-smp', smp, nonconflictingSMPBody, duplicatesOnly],
  ].flatMap(([name, contentType, body, findings]) => [
    {
      name: `${name as string}-strict-validation`,
      contentType: contentType as string,
      body: body as string,
      directive: 'Strict',
      strictDecodingError: `strict decoding error: ${(findings as string[]).join(', ')}`,
      warnings: [],
    },
    {
      name: `${name as string}-warn-validation`,
      contentType: contentType as string,
      body: body as string,
      directive: 'Warn',
      warnings: findings as string[],
    },
    {
      name: `${name as string}-ignore-validation`,
      contentType: contentType as string,
      body: body as string,
      directive: 'Ignore',
      warnings: [],
    },
    {
      name: `${name as string}-no-validation`,
      contentType: contentType as string,
      body: body as string,
      warnings: findings as string[],
    },
  ]),
  {
    name: 'smp: the bad value is the patch map as Go prints it',
    contentType: smp,
    body: nonconflictingSMPBody,
    directive: 'Strict',
    message:
      ' "" is invalid: patch: Invalid value: "map[spec:map[paused:false selector:map[matchLabels:map[app:nginx]] template:map[metadata:map[labels:map[app:nginx]] spec:map[containers:[map[imagePullPolicy:Never name:nginx]]]]]]": strict decoding error: duplicate field "spec.paused", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    warnings: [],
  },
  {
    name: 'merge patch: a patch that is not JSON is a 400 under Strict',
    contentType: merge,
    body: '{"spec":',
    directive: 'Strict',
    message: 'error decoding patch: unexpected end of JSON input',
    warnings: [],
  },
];

describe('server/handlers PATCH fieldValidation (field_validation_test.go)', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  cases.forEach((c, i) =>
    it(c.name, async () => {
      const name = `d${i}`;
      const created = await call(server, 'POST', deployments, deployment(name));
      assert.strictEqual(created.status, 201, created.text);
      const query = c.directive === undefined ? '' : `?fieldValidation=${c.directive}`;
      const r = await call(
        server,
        'PATCH',
        `${deployments}/${name}${query}`,
        c.body,
        c.contentType,
      );
      const refused = c.strictDecodingError !== undefined || c.message !== undefined;
      if (!refused) assert.strictEqual(r.status, 200, r.text);
      else if (c.message?.startsWith('error decoding patch')) assert.strictEqual(r.status, 400);
      else assert.strictEqual(r.status, 422, r.text);
      const message = String(r.json.message);
      if (c.strictDecodingError !== undefined)
        assert.ok(message.endsWith(c.strictDecodingError), message);
      if (c.message !== undefined) assert.strictEqual(message, c.message);
      assert.deepStrictEqual(r.warnings, c.warnings);
    }),
  );
});
