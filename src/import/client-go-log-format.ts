// No upstream counterpart: a Go controller's log (client-go's klog lines) as an import format:
// k8s.io/client-go tools/cache/reflector.go's list and watch lines, printf-style in 0.17–0.32
// (`reflector.go:NNN] <name>: watch of *v1.Pod ended with: too old resource version: 5 (7)`) and
// structured from 0.33 (`"Watch close" reflector="…" type="*v1.Pod" totalItems=12`), the end of a
// WatchList watch's initial events (`Exiting watch because received the bookmark…`, 0.27+), and
// transport/round_trippers.go's request lines at -v=6 and above. The reflector's calls, read at
// every tag v0.17.0 … v0.36.0, are client-go-reflector-log-calls.ts's table; apimachinery's
// HandleError wraps the 0.31–0.32 error lines in `"Unhandled Error" err="…"`.
// Lines of other components are skipped. The reading is client-log-parser.ts's.
import { ClientLogParser } from './client-log-parser';
import { klogTimeIn, parseKlogLine } from './klog-entry';
import type { LineFormat } from './line-parser';
import { reflectorEventOf } from './reflector-line';

export const clientGoLogFormat: LineFormat = {
  format: 'client-go',
  sniff(text) {
    const k = parseKlogLine(text, 2000);
    if (typeof k !== 'object') return false;
    return k.file === 'reflector.go' || reflectorEventOf(k.message) !== undefined;
  },
  yearlessTime: klogTimeIn,
  create: () => new ClientLogParser('client-go'),
};
