// An in-stream `too old resource version` is a 410: the watch's response was 200 OK, then the
// watch cache sent an ERROR event with a 410 Expired Status (k8s.io/apiserver cacher), and
// client-go's reflector logged it (tools/cache/reflector.go: `watch of … closed with:` in
// 0.20–0.32's isExpiredError case, `ended with:` before, `"Watch closed" … err=` from 0.33). The
// client's 410 count includes it, and the LIST its reflector sends next is a relist.
import type { ImportReport } from '../../../src/run/import-report';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import { ImportReportBuilder } from '../../../src/import/import-report';
import { withTempFiles } from './import-harness';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');
const read = (file: string) => fs.readFileSync(path.join(fixtures, file), 'utf8');
const builtLog = read('client-go-1.27-v6-expired.log');
const closedWith =
  /^I(\S+ \S+ +7001) reflector\.go:443\] (\S+): watch of \*v1\.Pod closed with: (.*)$/m;

async function report(content: string): Promise<ImportReport> {
  return withTempFiles([{ name: 'client.log', content }], async ([p]) => {
    const builder = new ImportReportBuilder();
    const totals = await importFiles([{ path: p, name: 'client.log' }], {}, builder);
    return builder.finish(totals);
  });
}

describe('import: an in-stream too old resource version is a 410, and the next LIST a relist', () => {
  const cases: Array<{ name: string; content: () => string; resource: string }> = [
    {
      name: 'client-go 0.27 -v=6: `watch of *v1.Pod closed with: too old resource version: 1243 (1244)`',
      content: () => builtLog,
      resource: 'pods',
    },
    {
      name: 'the same watch ended with `ended with:` (the text 0.17 prints for every error)',
      content: () =>
        builtLog.replace(closedWith, 'W$1 reflector.go:456] $2: watch of *v1.Pod ended with: $3'),
      resource: 'pods',
    },
    {
      name: 'client-go 0.33 structured: "Watch closed" … err="too old resource version: 1243 (1244)"',
      content: () =>
        builtLog.replace(
          closedWith,
          'I$1 reflector.go:543] "Watch closed" reflector="$2" type="*v1.Pod" err="$3"',
        ),
      resource: 'pods',
    },
    {
      name: 'kubectl 1.27.16 -v=6 wait (recorded): `closed with: too old resource version: 27 (28)`',
      content: () => read('kubectl-1.27-v6-wait.log'),
      resource: 'pods in default',
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const rep = await report(c.content());
      assert.strictEqual(rep.clients.length, 1, rep.clients.map((x) => x.userAgent).join(', '));
      const [cl] = rep.clients;
      assert.deepStrictEqual(
        {
          expired: cl.watchEnds.expired,
          http410: cl.http410,
          relists: cl.relists,
          because: cl.relistDetails.map((x) => [x.because, x.via, x.resource]),
        },
        { expired: 1, http410: 1, relists: 1, because: [['expired', 'list', c.resource]] },
      );
      // The relist LIST came back whole, read before the watch's end was: still a relist chain.
      const chain = cl.paginationChains.find((x) => x.id === cl.relistDetails[0].chain);
      assert.ok(chain?.relist, JSON.stringify(cl.paginationChains));
    });
});
