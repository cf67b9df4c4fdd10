// Tests for src/replay (replay-objects.ts, replay-import.ts): the replay holds nothing the log does
// not prove, as the re-review of #24 found it did (/tmp/rv2: a session of 30 creates at Metadata
// level, then kubectl's chunked gets; a page retried after its 504).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importFiles } from '../../../src/import/import-files';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { auditLogRequests } from './audit-log-requests';
import { replayToModel } from '../../../src/replay/replay-import';
import type { ReplayOptions } from '../../../src/replay/replay-options';

const t0 = Date.UTC(2026, 11, 7, 11, 51, 31);
const log = auditLogRequests({
  t0,
  userAgent: 'kubectl/v1.35.2 (linux/amd64) kubernetes/fdc9d74',
  unitMs: 1,
  tookMs: 3,
});
const req = log.req.bind(log);

/** A continue token at the real cluster's RV 40 from a key. */
function token(start: string): string {
  return Buffer.from(`{"v":"meta.k8s.io/v1","rv":40,"start":"${start}\\u0000"}`).toString(
    'base64url',
  );
}

/** kubectl create of 30 pods, at Metadata level: no object, so no labels (they had app=x). */
function creates(): ImportedRequest[] {
  return Array.from({ length: 30 }, (_, i) =>
    req('create', '/api/v1/namespaces/default/pods', i * 10, {
      code: 201,
      objectRef: { resource: 'pods', namespace: 'default', name: `extra-${100 + i}` },
    }),
  );
}

/** A chain's pages at `limit`, each answered with a token (the last with none). */
function pages(
  query: string,
  limit: number,
  starts: string[],
  atMs: number,
  response?: (page: number) => ImportedRequest['response'],
): ImportedRequest[] {
  return ['', ...starts].map((start, p) =>
    req(
      'list',
      `/api/v1/namespaces/default/pods?${start ? `continue=${token(start)}&` : ''}${query}limit=${limit}`,
      atMs + p * 5,
      response ? { response: response(p) } : {},
    ),
  );
}

const base: ReplayOptions = { profile: '1.36', seed: 7, files: ['audit.log'] };

describe('what the replay holds is what the log proves', () => {
  it('creates without their objects are labelled for the selector proof after them, not seeded again', async () => {
    // 35 pods at RV 40 (a Table cut after its metadata: 10 + remainingItemCount 25, …, none), and
    // app=x's 5 pages at limit 7 (4 answered with a token: 28 matching at least). The truth is 5
    // seeded: the 30 created all had app=x.
    const requests = [
      ...creates(),
      ...pages('', 10, ['/extra-109', '/extra-119', '/extra-129'], 500, (p) =>
        p < 3
          ? { resourceVersion: '40', continue: token('x'), remainingItemCount: 25 - 10 * p }
          : { resourceVersion: '40' },
      ),
      ...pages(
        'labelSelector=app%3Dx&',
        7,
        ['/extra-106', '/extra-113', '/extra-120', '/extra-127'],
        700,
      ),
    ];
    const { model, summary } = await replayToModel(requests, base);
    assert.strictEqual(summary.seeded[0].objects, 5, summary.seeded[0].text);
    assert.match(summary.seeded[0].text, /28 of the 30 creates .* given app=x/);
    const unfiltered = model.lists.filter((l) => !l.request.includes('labelSelector'));
    assert.deepStrictEqual(
      unfiltered.map((l) => [l.remainingItemCount, l.continue !== '']),
      [
        [25, true],
        [15, true],
        [5, true],
        [undefined, false],
      ],
    );
    assert.strictEqual(summary.disagreements, 0);
    assert.deepStrictEqual(summary.skipped, {});
  });

  it("a page retried after its 504 is re-issued with its first try's token, and the next page follows", async () => {
    // 25 pods; kubectl 1.35's chunk-size=10 under cache-lag: page 2 answered 504, sent again.
    const [p1, p2, p3] = pages('', 10, ['/extra-110', '/extra-120'], 1000);
    const retry504 = { ...p2, id: 'retry-504', auditID: 'retry-504', code: 504 };
    const requests = [
      ...creates().slice(0, 25),
      p1,
      retry504,
      { ...p2, receivedAt: p2.receivedAt! + 3000, completedAt: p2.completedAt! + 3000 },
      { ...p3, receivedAt: p3.receivedAt! + 3000, completedAt: p3.completedAt! + 3000 },
    ];
    const { model, summary } = await replayToModel(requests, base);
    const sent = model.lists.map(
      (l) => new URLSearchParams(l.request.split('?')[1]).get('continue') ?? '',
    );
    assert.strictEqual(sent.length, 4, 'every page re-issued');
    assert.strictEqual(sent[1], sent[2], 'the retry sends the same token as its first try');
    assert.strictEqual(sent[3], model.lists[2].continue, "page 3 sends the retry's token");
    assert.strictEqual(summary.disagreements, 0);
    assert.deepStrictEqual(summary.skipped, {});
  });

  it('a scheduled page the engine cannot send is named in the phase text that counted it', async () => {
    // --objects pods=5: the engine's chain ends at its first page, the log's goes on.
    const requests = pages('', 10, ['/extra-110', '/extra-120'], 0);
    const { model, summary } = await replayToModel(requests, { ...base, objects: { pods: 5 } });
    assert.strictEqual(summary.replayed, 1);
    const texts = (model.phases ?? []).map((p) => p.text);
    assert.ok(
      texts.some(
        (t) =>
          /3 scheduled/.test(t) &&
          /2 × continue page: the engine's chain had already ended/.test(t),
      ),
      texts.join(' | '),
    );
  });

  it("etcd 3.4's refused WatchList watches (the client logged it) are refused by the replay too, and it says why", async () => {
    // kubectl 1.33 -v=8 wait, WatchListClient on, against etcd 3.4.23 (the reviewer's session).
    const fixtures = path.resolve(__dirname, '../../../../test/fixtures/import');
    const names = [
      'etcd-3.4-wait-watchlist-audit.log',
      'kubectl-1.33-v8-wait-watchlist-etcd-3.4.log',
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-replay-'));
    const requests: ImportedRequest[] = [];
    try {
      for (const n of names) fs.copyFileSync(path.join(fixtures, n), path.join(dir, n));
      await importFiles(
        names.map((name) => ({ path: path.join(dir, name), name })),
        {},
        { request: (r) => requests.push(r), reject: () => undefined },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const { model, summary } = await replayToModel(requests, { ...base, files: names });
    const watchLists = (model.watchRequests ?? []).filter((w) =>
      w.request.includes('sendInitialEvents=true'),
    );
    assert.deepStrictEqual(
      watchLists.map((w) => [w.error?.code, w.logged?.status, w.disagrees ?? []]),
      [
        [500, 500, []],
        [500, 500, []],
      ],
    );
    assert.ok(
      summary.notes.some((n) =>
        /the log proves etcd lacked RequestWatchProgress .* at kubectl-1\.33-v8-wait-watchlist-etcd-3\.4\.log:65/.test(
          n,
        ),
      ),
      summary.notes.join('\n'),
    );
    assert.strictEqual(summary.disagreements, 0);
  });
});
