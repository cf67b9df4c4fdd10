// No upstream counterpart: the log formats an import detects, in the order detection prefers them
// when a file's first lines fit several equally (each format's parser adds its line here).
import { auditEventFormat } from './audit-event-format';
import { clientGoLogFormat } from './client-go-log-format';
import { httplogFormat } from './httplog-format';
import { kubectlLogFormat } from './kubectl-log-format';
import type { LineFormat } from './line-parser';

export const knownLineFormats: readonly LineFormat[] = [
  auditEventFormat,
  httplogFormat,
  kubectlLogFormat,
  clientGoLogFormat,
];
