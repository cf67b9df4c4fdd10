// Tests for src/run/views/client-name.ts: a User-Agent's short name, and short names that tell
// apart the User-Agents that share a first word (the Import tab's client table).
import * as assert from 'assert';
import { shortClientName, shortClientNames } from '../../../../src/run/views/client-name';

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
});
