// Tests for src/engine/storage/selection-predicate.ts: TestSelectionPredicate, TestSelectionPredicateMatcherIndex and the query parsing of `from`.
import * as assert from 'assert';
import { StatusError, isBadRequest } from '../../../src/engine/storage/errors';
import * as fields from '../../../src/engine/storage/fields';
import * as labels from '../../../src/engine/storage/labels';
import { makePod } from '../../../src/engine/storage/objects';
import {
  SelectionPredicate,
  fieldIndex,
  labelIndex,
  type MatchValue,
} from '../../../src/engine/storage/selection-predicate';

describe('SelectionPredicate (TestSelectionPredicate)', () => {
  const table: {
    name: string;
    label: string;
    field: string;
    labels: labels.Labels;
    fields: fields.Fields;
    err?: Error;
    match: boolean;
    single?: string;
  }[] = [
    {
      name: 'A',
      label: 'name=foo',
      field: 'uid=12345',
      labels: { name: 'foo' },
      fields: { uid: '12345' },
      match: true,
    },
    {
      name: 'B',
      label: 'name=foo',
      field: 'uid=12345',
      labels: { name: 'foo' },
      fields: {},
      match: false,
    },
    {
      name: 'C',
      label: 'name=foo',
      field: 'uid=12345',
      labels: {},
      fields: { uid: '12345' },
      match: false,
    },
    {
      name: 'D',
      label: '',
      field: 'metadata.name=12345',
      labels: {},
      fields: { 'metadata.name': '12345' },
      match: true,
      single: '12345',
    },
    {
      name: 'error',
      label: 'name=foo',
      field: 'uid=12345',
      labels: {},
      fields: {},
      err: new Error("maybe this is a 'wrong object type' error"),
      match: false,
    },
  ];
  for (const item of table) {
    it(item.name, () => {
      const sp = new SelectionPredicate({
        label: labels.parse(item.label),
        field: fields.parseSelector(item.field),
        getAttrs: () => {
          if (item.err) throw item.err;
          return { labels: item.labels, fields: item.fields };
        },
      });
      const obj = makePod({ name: 'ignored' });
      if (item.err) {
        assert.throws(
          () => sp.matches(obj),
          (e: unknown) => e === item.err,
        );
      } else {
        assert.strictEqual(sp.matches(obj), item.match, item.name);
      }
      assert.strictEqual(
        sp.matchesObjectAttributes(item.labels, item.fields),
        item.match,
        item.name,
      );
      if (item.single !== undefined) assert.strictEqual(sp.matchesSingle(), item.single);
    });
  }

  it('an empty predicate matches without calling getAttrs', () => {
    const sp = new SelectionPredicate({
      getAttrs: () => {
        throw new Error('not called');
      },
    });
    assert.ok(sp.empty());
    assert.ok(sp.matches(makePod({ name: 'p' })));
  });

  it('matchesSingle / matchesSingleNamespace are off while continuing', () => {
    const sp = new SelectionPredicate({
      field: fields.parseSelector('metadata.name=a,metadata.namespace=ns'),
    });
    assert.strictEqual(sp.matchesSingle(), 'a');
    assert.strictEqual(sp.matchesSingleNamespace(), 'ns');
    sp.continue = 'token';
    assert.strictEqual(sp.matchesSingle(), undefined);
    assert.strictEqual(sp.matchesSingleNamespace(), undefined);
  });
});

describe('SelectionPredicate.matcherIndex (TestSelectionPredicateMatcherIndex)', () => {
  const cases: {
    name: string;
    label: string;
    field: string;
    indexLabels: string[];
    indexFields: string[];
    ns: string;
    want: MatchValue[];
  }[] = [
    {
      name: 'Match nil',
      label: 'name=foo',
      field: 'uid=12345',
      indexLabels: ['bar'],
      indexFields: [],
      ns: '',
      want: [],
    },
    {
      name: 'Match field',
      label: 'name=foo',
      field: 'uid=12345',
      indexLabels: [],
      indexFields: ['uid'],
      ns: '',
      want: [{ indexName: fieldIndex('uid'), value: '12345' }],
    },
    {
      name: 'namespace pods without metadata.namespace field selector',
      label: '',
      field: '',
      indexLabels: [],
      indexFields: ['metadata.namespace'],
      ns: 'default',
      want: [{ indexName: fieldIndex('metadata.namespace'), value: 'default' }],
    },
    {
      name: 'namespace pods with metadata.namespace field selector',
      label: '',
      field: 'metadata.namespace=kube-system',
      indexLabels: [],
      indexFields: ['metadata.namespace'],
      ns: 'default',
      want: [{ indexName: fieldIndex('metadata.namespace'), value: 'kube-system' }],
    },
    {
      name: 'all pods without metadata.namespace field selector',
      label: '',
      field: '',
      indexLabels: [],
      indexFields: ['metadata.namespace'],
      ns: '',
      want: [],
    },
    {
      name: 'Match label',
      label: 'name=foo',
      field: '',
      indexLabels: ['name'],
      indexFields: [],
      ns: '',
      want: [{ indexName: labelIndex('name'), value: 'foo' }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const sp = new SelectionPredicate({
        label: labels.parse(c.label),
        field: fields.parseSelector(c.field),
        indexLabels: c.indexLabels,
        indexFields: c.indexFields,
      });
      assert.deepStrictEqual(sp.matcherIndex(c.ns), c.want);
    });
  }
  it('prefixes index names like storage.LabelIndex / FieldIndex', () => {
    assert.strictEqual(labelIndex('app'), 'l:app');
    assert.strictEqual(fieldIndex('spec.nodeName'), 'f:spec.nodeName');
  });
});

describe('SelectionPredicate.from (query parsing as in handlers/get.go)', () => {
  it('parses selectors, limit and continue, and indexes spec.nodeName for pods', () => {
    const sp = SelectionPredicate.from({
      label: 'app=web',
      field: 'spec.nodeName=n1',
      limit: 2,
      continue: 'tok',
      allowWatchBookmarks: true,
    });
    assert.deepStrictEqual(
      [sp.label.string(), sp.field.string(), sp.limit, sp.continue, sp.allowWatchBookmarks],
      ['app=web', 'spec.nodeName=n1', 2, 'tok', true],
    );
    assert.deepStrictEqual(sp.indexFields, ['spec.nodeName']);
    assert.ok(!sp.empty());
    assert.ok(SelectionPredicate.from({}).empty());
  });

  it('matches pods through their labels and selectable fields', () => {
    const sp = SelectionPredicate.from({
      label: 'app in (web,api)',
      field: 'status.phase=Running,spec.nodeName!=n2',
    });
    const pod = (app: string, phase: string, node: string) =>
      makePod({ name: 'p', namespace: 'ns', labels: { app }, phase, nodeName: node });
    assert.strictEqual(sp.matches(pod('web', 'Running', 'n1')), true);
    assert.strictEqual(sp.matches(pod('db', 'Running', 'n1')), false);
    assert.strictEqual(sp.matches(pod('api', 'Pending', 'n1')), false);
    assert.strictEqual(sp.matches(pod('api', 'Running', 'n2')), false);
  });

  it('converts the legacy spec.host label to spec.nodeName', () => {
    assert.strictEqual(
      SelectionPredicate.from({ field: 'spec.host=n1' }).field.string(),
      'spec.nodeName=n1',
    );
  });

  const bad: {
    name: string;
    q: { label?: string; field?: string };
    resource?: string;
    message: string;
  }[] = [
    {
      name: 'bad label selector',
      q: { label: 'x in y' },
      message: "unable to parse requirement: found 'y' expected: '('",
    },
    {
      name: 'label error wins over field error',
      q: { label: ',', field: 'x' },
      message: "found ',', expected: !, identifier, or 'end of string'",
    },
    {
      name: 'bad field selector',
      q: { field: 'x' },
      message: "invalid selector: 'x'; can't understand 'x'",
    },
    {
      name: 'unsupported pod field label',
      q: { field: 'foo=bar' },
      message: 'field label not supported: foo',
    },
    {
      name: 'unsupported field on a generic resource',
      q: { field: 'spec.nodeName=x' },
      resource: 'configmaps',
      message:
        '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
    },
  ];
  for (const b of bad) {
    it(`${b.name} -> 400`, () => {
      assert.throws(
        () => SelectionPredicate.from(b.q, b.resource),
        (e: unknown) =>
          e instanceof StatusError &&
          isBadRequest(e) &&
          e.status.code === 400 &&
          e.message === b.message,
      );
    });
  }
});
