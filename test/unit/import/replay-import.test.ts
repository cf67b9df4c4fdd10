// Tests for src/import/replay-import.ts: imported requests re-issued through the engine in virtual
// time, the log's answers beside the engine's, what-ifs, and determinism.
import * as assert from 'assert';
import type { ImportedRequest } from '../../../src/import/imported-request';
import { replayImport, replayToModel, type TraceLine } from '../../../src/import/replay-import';
import type { ReplayOptions } from '../../../src/import/replay-options';

const t0 = Date.UTC(2025, 2, 12, 10, 15, 0);
const ua = 'kube-state-metrics/v2.12.0';
let seq = 0;

/** An imported request as an audit importer would make it (Metadata level unless told). */
function req(
  verb: string,
  uri: string,
  atS: number | undefined,
  o: Partial<ImportedRequest> = {},
): ImportedRequest {
  const id = `audit-${++seq}`;
  return {
    id,
    auditID: id,
    sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
    verb,
    requestURI: uri,
    userAgent: ua,
    ...(atS !== undefined ? { receivedAt: t0 + atS * 1000, completedAt: t0 + atS * 1000 + 40 } : {}),
    startInFile: true,
    endInFile: true,
    code: 200,
    ...o,
  };
}

const base: ReplayOptions = { profile: '1.36', seed: 7, files: ['audit.log'] };

describe('replayImport', () => {
  it('replays a chain of 3 pages with the engine\'s continue tokens', async () => {
    const logToken = (n: number): string => Buffer.from(`{"v":"meta.k8s.io/v1","rv":48213,"start":"default/p${n}\\u0000"}`).toString('base64url');
    const { model, summary } = await replayToModel(
      [
        req('list', '/api/v1/pods?limit=500', 0, { response: { items: 500, remainingItemCount: 700, continue: logToken(1) } }),
        req('list', `/api/v1/pods?continue=${logToken(1)}&limit=500`, 1, { response: { items: 500, remainingItemCount: 200, continue: logToken(2) } }),
        req('list', `/api/v1/pods?continue=${logToken(2)}&limit=500`, 2, { response: { items: 200 } }),
      ],
      base,
    );
    console.log(JSON.stringify(summary, null, 1));
    console.log(model.lists.map((l) => [l.request, l.servedBy, l.returned, l.remainingItemCount, l.disagrees, l.logged]));
  });
});
