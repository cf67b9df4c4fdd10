// Tests for src/run/views/client-name.ts: a User-Agent's short name, and short names that tell
// apart the User-Agents that share a first word (the Import tab's client table).
import * as assert from 'assert';
import {
  importedClientName,
  shortClientName,
  shortClientNames,
  shortImportedClientNames,
} from '../../../../src/run/views/client-name';

describe('client names', () => {
  const kcm = 'kube-controller-manager/v1.33.1 (linux/amd64) kubernetes/8adc0f0';

  it('a short name is the first word of the User-Agent', () => {
    assert.strictEqual(
      shortClientName('kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0'),
      'kubectl/v1.33.1',
    );
    assert.strictEqual(shortClientName('  '), '');
  });

  it('User-Agents that share a first word are told apart by what follows their common part', () => {
    const names = shortClientNames([
      `${kcm}/shared-informers`,
      `${kcm}/leader-election`,
      'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0',
      `${kcm}/shared-informers`,
    ]);
    assert.deepStrictEqual(
      [...names.entries()],
      [
        [`${kcm}/shared-informers`, 'kube-controller-manager/v1.33.1 …shared-informers'],
        [`${kcm}/leader-election`, 'kube-controller-manager/v1.33.1 …leader-election'],
        ['kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0', 'kubectl/v1.33.1'],
      ],
    );
  });

  it('a User-Agent that is all the common part is shown whole', () => {
    const names = shortClientNames([kcm, `${kcm}/leader-election`]);
    assert.strictEqual(names.get(kcm), kcm);
    assert.strictEqual(
      names.get(`${kcm}/leader-election`),
      'kube-controller-manager/v1.33.1 …leader-election',
    );
  });

  it('an imported client is its User-Agent, then the process a client log names', () => {
    const ua = 'kubectl/v1.35.2 (linux/amd64) kubernetes/fdc9d74';
    const cases: Array<{
      client: { userAgent: string; process?: string };
      name: string;
      short: string;
    }> = [
      { client: { userAgent: ua }, name: ua, short: 'kubectl/v1.35.2' },
      {
        client: { userAgent: ua, process: 'a.log pid 7' },
        name: `${ua} · a.log pid 7`,
        short: 'kubectl/v1.35.2 · a.log pid 7',
      },
      {
        client: { userAgent: '', process: 'b.log pid 8' },
        name: 'b.log pid 8',
        short: 'b.log pid 8',
      },
      { client: { userAgent: '' }, name: '', short: '' },
    ];
    const shorts = shortImportedClientNames(cases.map((c) => c.client));
    for (const c of cases) {
      assert.strictEqual(importedClientName(c.client), c.name);
      assert.strictEqual(shorts.get(c.name), c.short, c.name);
    }
  });
});
