// Tests for the replay's seeding at the start of a log (src/replay/proven-objects.ts,
// replay-objects.ts) and its named writes (replay-import.ts): issue #24 items 13 and 15, second
// review. The fixture is an audit log of one session: a LIST of 5 pods, 3 creates whose audit
// events name the object only at ResponseComplete (as the apiserver fills objectRef.name once it
// has decoded the body), a delete, then a chunked LIST of 7 (limit=2, 4 pages).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayToModel, type TraceLine } from '../../../src/replay/replay-import';
import { replaySummaryText } from '../../../src/replay/replay-options';
import { replaySummaryLines } from '../../../src/cli/import-replay-options';
import { replayPanel } from '../../../src/extension/panel/replay-panel';
import { replayCountText } from '../../../src/run/views/replay-count';

const ua = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
let n = 0;

function at(s: number): string {
  return new Date(Date.UTC(2026, 11, 7, 9, 54, 40) + s * 1000).toISOString().replace('Z', '000Z');
}

/** A request's two audit events: RequestReceived (objectRef as known then) and ResponseComplete. */
function events(
  verb: string,
  uri: string,
  atS: number,
  code: number,
  ref: Record<string, string>,
  o: { name?: string; level?: string; responseObject?: unknown } = {},
): string[] {
  const auditID = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const base = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: o.level ?? 'Metadata',
    auditID,
    requestURI: uri,
    verb,
    user: { username: 'listwatch' },
    sourceIPs: ['127.0.0.1'],
    userAgent: ua,
    requestReceivedTimestamp: at(atS),
  };
  const objectRef = { resource: 'pods', namespace: 'default', apiVersion: 'v1', ...ref };
  return [
    JSON.stringify({ ...base, stage: 'RequestReceived', objectRef, stageTimestamp: at(atS) }),
    JSON.stringify({
      ...base,
      stage: 'ResponseComplete',
      objectRef: o.name ? { ...objectRef, name: o.name } : objectRef,
      responseStatus: { metadata: {}, code },
      ...(o.responseObject ? { responseObject: o.responseObject } : {}),
      stageTimestamp: at(atS + 0.02),
    }),
  ];
}

function token(start: string): string {
  return Buffer.from(`{"v":"meta.k8s.io/v1","rv":17,"start":"${start}\\u0000"}`).toString(
    'base64url',
  );
}

function podList(names: string[], rv: string, cont?: string, remaining?: number): unknown {
  return {
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: {
      resourceVersion: rv,
      ...(cont ? { continue: cont, remainingItemCount: remaining } : {}),
    },
    items: names.map((name) => ({ metadata: { name, namespace: 'default' } })),
  };
}

/** The session's audit log, as lines (`firstList`: with the LIST of 5 before the creates). */
function sessionLog(firstList = true): string {
  const pods = ['pod-0', 'pod-1', 'pod-2', 'pod-3', 'pod-4'];
  const lines: string[] = [];
  if (firstList)
    lines.push(
      ...events(
        'list',
        '/api/v1/namespaces/default/pods?limit=500',
        0,
        200,
        {},
        {
          level: 'RequestResponse',
          responseObject: podList(pods, '10'),
        },
      ),
    );
  ['x-a', 'x-b', 'x-c'].forEach((name, i) =>
    lines.push(
      ...events(
        'create',
        '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply',
        1 + i,
        201,
        {},
        { name },
      ),
    ),
  );
  lines.push(
    ...events(
      'delete',
      '/api/v1/namespaces/default/pods/x-a',
      5,
      200,
      { name: 'x-a' },
      {
        name: 'x-a',
      },
    ),
  );
  // kubectl get --chunk-size=2: pod-0 pod-1 | pod-2 pod-3 | pod-4 x-b | x-c
  const now = [...pods, 'x-b', 'x-c'];
  for (let p = 0; p < 4; p++) {
    const items = now.slice(p * 2, p * 2 + 2);
    const last = p === 3;
    const uri =
      p === 0
        ? '/api/v1/namespaces/default/pods?limit=2'
        : `/api/v1/namespaces/default/pods?continue=${token(`/${now[p * 2 - 1]}`)}&limit=2`;
    lines.push(
      ...events(
        'list',
        uri,
        8 + p * 0.1,
        200,
        {},
        {
          level: 'RequestResponse',
          responseObject: podList(
            items,
            '17',
            last ? undefined : token(`/${items[1]}`),
            last ? undefined : now.length - (p + 1) * 2,
          ),
        },
      ),
    );
  }
  return lines.join('\n') + '\n';
}

async function imported(firstList = true): Promise<ImportedRequest[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seeding-at-start-'));
  const file = path.join(dir, 'audit.log');
  fs.writeFileSync(file, sessionLog(firstList));
  const requests: ImportedRequest[] = [];
  try {
    await importFiles(
      [{ path: file, name: 'audit.log' }],
      { signal: new AbortController().signal, onProgress: () => undefined },
      { request: (r) => requests.push(r), reject: () => undefined },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return requests;
}

describe('replay seeding at the start: 5 pods, 3 named creates, 1 delete, a chunked LIST of 7', () => {
  it('replays the creates the audit events name (a minimal object with that name, said so)', async () => {
    const lines: TraceLine[] = [];
    const { summary } = await replayToModel(await imported(), { profile: '1.36', seed: 1 }, (l) =>
      lines.push(l),
    );
    const text = replaySummaryLines('1.36', summary).join('\n');
    assert.doesNotMatch(text, /without an object name/, text);
    assert.strictEqual(summary.writes, 4, text);
    assert.strictEqual(summary.synthesised.length, 3, text);
    const writes = lines.filter(
      (l): l is Extract<TraceLine, { action: 'writes' }> => 'action' in l && l.action === 'writes',
    );
    assert.deepStrictEqual(
      writes.map((w) => w.verb),
      ['create', 'create', 'create', 'delete'],
    );
    assert.match(
      writes[0].text ?? '',
      /^create x-a in default: a minimal object with the name the log gives \(the log has no body\)/,
    );
  });

  it('seeds the 5 the log proves at the start: a proof at t less the creates, plus the deletes, before t', async () => {
    const { model, summary } = await replayToModel(await imported(), { profile: '1.36', seed: 1 });
    const pods = summary.seeded.find((s) => s.resource === 'pods');
    assert.ok(pods);
    assert.strictEqual(pods.objects, 5, pods.text);
    assert.match(pods.text, /^5 inferred/, pods.text);
    assert.match(
      pods.text,
      /less 3 creates and plus 1 delete the log shows before it in default/,
      pods.text,
    );
    // What each LIST returned in the engine: 5 before the creates, 7 (4 pages) at the chunked LIST.
    assert.deepStrictEqual(
      model.lists.map((l) => l.returned),
      [5, 2, 2, 2, 1],
    );
    assert.strictEqual(summary.disagreements, 0, replaySummaryText(summary));
    assert.match(replaySummaryText(summary), /the engine agrees with every one/);
  });

  it('one number for what was seeded; a gap is said by what the engine held there, not as another seeding', async () => {
    // Seeded too few (given 4): at the chunked LIST the engine holds 4 + 3 − 1 = 6 where the log had 7.
    const { model, summary } = await replayToModel(await imported(false), {
      profile: '1.36',
      seed: 1,
      objects: { pods: 4 },
    });
    const pods = summary.seeded.find((s) => s.resource === 'pods');
    assert.strictEqual(pods?.objects, 4);
    for (const text of [replaySummaryText(summary), replayCountText(replayPanel(model)!.count)]) {
      assert.match(
        text,
        /the engine held 6 objects there \(4 seeded, 3 created and 1 deleted by the replayed log before it\); the log's answer had 7/,
        text,
      );
      assert.doesNotMatch(text, /seeded 6|replay seeded/, text);
    }
  });
});
