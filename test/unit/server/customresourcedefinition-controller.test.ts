// Tests for src/server/customresourcedefinition-controller.ts calculateNamesAndConditions, after
// apiextensions-apiserver pkg/controller/status/naming_controller_test.go (TestSync): the names a
// CRD asks for, those already taken in its group, and the names granted with NamesAccepted.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine';
import { calculateNamesAndConditions } from '../../../src/server/customresourcedefinition-controller';

const names = {
  plural: 'alfa',
  singular: 'alfa',
  shortNames: ['af'],
  kind: 'Alfa',
  listKind: 'AlfaList',
};

const crd = (accepted?: Record<string, unknown>): KubeObject =>
  ({
    metadata: { name: 'alfa.bravo.com' },
    spec: { group: 'bravo.com', names },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  }) as unknown as KubeObject;

const cases: Array<{
  name: string;
  crd: KubeObject;
  resources: string[];
  kinds: string[];
  want: [status: string, reason: string, message: string];
  granted: Record<string, unknown>;
}> = [
  {
    name: 'no conflicts',
    crd: crd(),
    resources: [],
    kinds: [],
    want: ['True', 'NoConflicts', 'no conflicts found'],
    granted: names,
  },
  {
    name: 'plural taken',
    crd: crd(),
    resources: ['alfa'],
    kinds: [],
    want: ['False', 'SingularConflict', '"alfa" is already in use'],
    granted: { shortNames: ['af'], kind: 'Alfa', listKind: 'AlfaList', plural: '' },
  },
  {
    name: 'a short name taken',
    crd: crd(),
    resources: ['af'],
    kinds: [],
    want: ['False', 'ShortNamesConflict', '"af" is already in use'],
    granted: { plural: 'alfa', singular: 'alfa', kind: 'Alfa', listKind: 'AlfaList' },
  },
  {
    name: 'kind taken',
    crd: crd(),
    resources: [],
    kinds: ['Alfa'],
    want: ['False', 'KindConflict', '"Alfa" is already in use'],
    granted: {
      plural: 'alfa',
      singular: 'alfa',
      shortNames: ['af'],
      listKind: 'AlfaList',
      kind: '',
    },
  },
  {
    name: 'its own accepted names are no conflict',
    crd: crd(names),
    resources: ['alfa', 'af'],
    kinds: ['Alfa', 'AlfaList'],
    want: ['True', 'NoConflicts', 'no conflicts found'],
    granted: names,
  },
];

describe('calculateNamesAndConditions (the naming controller)', () => {
  for (const c of cases)
    it(c.name, () => {
      const got = calculateNamesAndConditions(c.crd, {
        resources: new Set(c.resources),
        kinds: new Set(c.kinds),
      });
      const { status, reason, message } = got.namesAccepted;
      assert.deepStrictEqual([status, reason, message], c.want, c.name);
      assert.deepStrictEqual(got.names, c.granted, c.name);
    });
});
