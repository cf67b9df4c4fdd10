// Tests for the live views of a CRD served in two versions over one storage: the debug state
// (debug-state.ts) and the live recorder's opening watch cache reports (live-recorder.ts) name its
// one watch cache once, and count each watcher once, whichever version it watches through.
import * as assert from 'assert';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { ApiServer } from '../../../src/server/api-server';
import { debugStatePath } from '../../../src/server/debug-state';
import { LiveRecorder } from '../../../src/server/live-recorder';
import { call, openWatch } from './http-client';

const crdText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1beta1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`;

interface StateBody {
  resources: { resource: string }[];
  watchers: { resource: string }[];
  watchersTotal: number;
}

describe('a CRD served in two versions: one watch cache in the live views', () => {
  let server: ApiServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'crd-views-'));
    const file = path.join(dir, 'widgets.yaml');
    writeFileSync(file, crdText);
    server = await ApiServer.start({ port: 0, crdFiles: [file] });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the debug state lists the cache once and each watcher once', async () => {
    const watches = await Promise.all(
      ['v1', 'v1beta1'].map((v) =>
        openWatch(server, `/apis/example.com/${v}/namespaces/default/widgets?watch=true`),
      ),
    );
    try {
      const body = (await call(server, 'GET', debugStatePath)).json as unknown as StateBody;
      const widgets = (r: { resource: string }): boolean => r.resource.startsWith('widgets');
      assert.strictEqual(body.resources.filter(widgets).length, 1, JSON.stringify(body.resources));
      assert.strictEqual(body.watchers.filter(widgets).length, 2);
      assert.strictEqual(body.watchersTotal, 2);
    } finally {
      for (const w of watches) w.req.destroy();
    }
  });

  it("the live recorder's opening reports name each watch cache once", () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    try {
      const opening = recorder
        .traceLines(recorder.metricsRecord())
        .filter((l) => l.includes('"observed"'))
        .map((l) =>
          JSON.stringify(
            (JSON.parse(l) as { event: { groupResource?: unknown } }).event.groupResource,
          ),
        );
      assert.strictEqual(new Set(opening).size, opening.length, opening.join('\n'));
      assert.ok(
        opening.some((g) => g.includes('widgets')),
        opening.join('\n'),
      );
    } finally {
      recorder.dispose();
    }
  });
});
