// No upstream counterpart: kubectl's own `-v=6..9` log (stderr) as an import format. kubectl 1.20–
// 1.32 print client-go's round-tripper lines printf-style (`GET <url> 200 OK in 12 milliseconds`,
// `Request Headers:` / `Response Status:` / `Response Headers:` blocks at -v=7 and -v=8, `curl -v
// -XGET …` at -v=9, `Response Body: …` from rest/request.go), 1.33+ as structured klog entries
// (`"Request" verb="GET" url="…" headers=<`, `"Response" status="200 OK" … milliseconds=8`,
// `"Response Body" body="…"`). Checked against real kubectl 1.20.2, 1.27.16, 1.28–1.31, 1.32.5
// and 1.33.1 (test/fixtures/import/). The reading is client-log-parser.ts's.
import { ClientLogParser } from './client-log-parser';
import { klogTimeIn, parseKlogLine } from './klog-entry';
import type { LineFormat } from './line-parser';

// What kubectl logs first at -v=6 and above: its kubeconfig, its feature gates (1.30+), then
// round_trippers.go's requests and the helpers' bodies.
const kubectlCallers = new Set([
  'loader.go',
  'envvar.go',
  'round_trippers.go',
  'helper.go',
  'request.go',
  'cached_discovery.go',
]);

export const kubectlLogFormat: LineFormat = {
  format: 'kubectl',
  sniff(text) {
    const k = parseKlogLine(text, 2000);
    return typeof k === 'object' && kubectlCallers.has(k.file);
  },
  yearlessTime: klogTimeIn,
  create: () => new ClientLogParser('kubectl'),
};
