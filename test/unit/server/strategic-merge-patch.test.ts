// Tests for src/server/strategic-merge-patch.ts: the application side of apimachinery pkg/util/strategicpatch/patch_test.go (two-way patches applied to the original, over the MergeItem test struct), then the patch tags of core/v1.
import * as assert from 'assert';
import type { JsonObject, JsonValue } from '../../../src/server/json-patch';
import {
  PatchMetaFromStruct,
  patchMetaForKind,
  type StructTags,
} from '../../../src/server/patch-meta';
import { strategicMergeMapPatch } from '../../../src/server/strategic-merge-patch';

// patch_test.go's MergeItem and RetainKeysMergeItem struct tags.
const mergeItemTags: StructTags = {
  MergeItem: {
    mergingList: ['slice', 'MergeItem', 'merge', 'name'],
    nonMergingList: ['slice', 'MergeItem'],
    mergingIntList: ['slice', '', 'merge'],
    nonMergingIntList: ['slice', ''],
    mergeItemPtr: ['pointer', 'MergeItem', 'merge', 'name'],
    replacingItem: ['struct', 'RawExtension', 'replace'],
    retainKeysMap: ['struct', 'RetainKeysMergeItem', 'retainKeys'],
    retainKeysMergingList: ['slice', 'MergeItem', 'merge,retainKeys', 'name'],
  },
  RetainKeysMergeItem: {
    mergingIntList: ['slice', '', 'merge'],
    mergingList: ['slice', 'MergeItem', 'merge', 'name'],
    nonMergingList: ['slice', 'MergeItem'],
  },
};
const mergeItemSchema = new PatchMetaFromStruct(mergeItemTags, 'MergeItem');

// Go's json.Marshal sorts map keys; sortLists also orders lists, as sortMergeListsByName does
// before upstream compares the yaml-table cases.
function canonical(v: JsonValue, sortLists: boolean): JsonValue {
  if (Array.isArray(v)) {
    const a = v.map((x) => canonical(x, sortLists));
    return sortLists ? a.sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)) : a;
  }
  if (v !== null && typeof v === 'object') {
    const o: JsonObject = {};
    for (const k of Object.keys(v).sort()) o[k] = canonical(v[k], sortLists);
    return o;
  }
  return v;
}

describe('strategic-merge-patch strategicMergeMapPatch (patch_test.go)', () => {
  // [description, compare list order, original, two-way patch, result (null when an error), error]
  const cases: Array<[string, boolean, JsonObject, JsonObject, JsonObject | null, string?]> = [
    // strategicMergePatchRawTestCases (applied two-way patches; results compared exactly)
    [
      'delete items in lists of scalars',
      true,
      { mergingIntList: [1, 2, 3] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2] },
    ],
    [
      'delete all duplicate items in lists of scalars',
      true,
      { mergingIntList: [1, 2, 3, 3] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2] },
    ],
    [
      'add and delete items in lists of scalars',
      true,
      { mergingIntList: [1, 2, 3] },
      {
        '$setElementOrder/mergingIntList': [1, 2, 4],
        '$deleteFromPrimitiveList/mergingIntList': [3],
        mergingIntList: [4],
      },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'merge lists of maps',
      true,
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 4 }, { name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
      {
        mergingList: [
          { name: 4, value: 4 },
          { name: 1 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
        ],
      },
    ],
    [
      'add field to map in merging list',
      true,
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, value: 1 }],
      },
      {
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
    ],
    [
      'add duplicate field to map in merging list',
      true,
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, value: 1 }],
      },
      {
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
    ],
    [
      'replace map field value in merging list',
      true,
      {
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, value: 'a' }],
      },
      {
        mergingList: [
          { name: 1, value: 'a' },
          { name: 2, value: 2 },
        ],
      },
    ],
    [
      'delete map from merging list',
      true,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }],
        mergingList: [{ name: 1, $patch: 'delete' }],
      },
      { mergingList: [{ name: 2 }] },
    ],
    [
      'delete missing map from merging list',
      true,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }],
        mergingList: [{ name: 1, $patch: 'delete' }],
      },
      { mergingList: [{ name: 2 }] },
    ],
    [
      'add map and delete map from merging list',
      true,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 3 }],
        mergingList: [{ name: 3 }, { name: 1, $patch: 'delete' }],
      },
      { mergingList: [{ name: 2 }, { name: 3 }] },
    ],
    [
      'delete field from map in merging list',
      true,
      {
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, value: null }],
      },
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
    ],
    [
      'delete missing field from map in merging list',
      true,
      {
        mergingList: [
          { name: 1, value: 1 },
          { name: 2, value: 2 },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, value: null }],
      },
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
    ],
    [
      'replace non merging list nested in merging list',
      true,
      {
        mergingList: [
          { name: 1, nonMergingList: [{ name: 1 }, { name: 2, value: 2 }] },
          { name: 2 },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [{ name: 1, nonMergingList: [{ name: 1, value: 1 }] }],
      },
      { mergingList: [{ name: 1, nonMergingList: [{ name: 1, value: 1 }] }, { name: 2 }] },
    ],
    [
      'add field to map in merging list nested in merging list',
      true,
      {
        mergingList: [{ name: 1, mergingList: [{ name: 1 }, { name: 2, value: 2 }] }, { name: 2 }],
      },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
        mergingList: [
          {
            '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }],
            name: 1,
            mergingList: [{ name: 1, value: 1 }],
          },
        ],
      },
      {
        mergingList: [
          {
            name: 1,
            mergingList: [
              { name: 1, value: 1 },
              { name: 2, value: 2 },
            ],
          },
          { name: 2 },
        ],
      },
    ],
    [
      'add map to merging list by pointer',
      true,
      { mergeItemPtr: [{ name: 1 }] },
      { '$setElementOrder/mergeItemPtr': [{ name: 1 }, { name: 2 }], mergeItemPtr: [{ name: 2 }] },
      { mergeItemPtr: [{ name: 1 }, { name: 2 }] },
    ],
    [
      'add field to map in merging list by pointer',
      true,
      {
        mergeItemPtr: [
          { name: 1, mergeItemPtr: [{ name: 1 }, { name: 2, value: 2 }] },
          { name: 2 },
        ],
      },
      {
        '$setElementOrder/mergeItemPtr': [{ name: 1 }, { name: 2 }],
        mergeItemPtr: [
          {
            '$setElementOrder/mergeItemPtr': [{ name: 1 }, { name: 2 }],
            name: 1,
            mergeItemPtr: [{ name: 1, value: 1 }],
          },
        ],
      },
      {
        mergeItemPtr: [
          {
            name: 1,
            mergeItemPtr: [
              { name: 1, value: 1 },
              { name: 2, value: 2 },
            ],
          },
          { name: 2 },
        ],
      },
    ],
    [
      'merge lists of scalars',
      true,
      { mergingIntList: [1, 2] },
      { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3] },
      { mergingIntList: [1, 2, 3] },
    ],
    [
      'add an item in a list of primitives and preserve order',
      true,
      { mergingIntList: [1, 2] },
      { '$setElementOrder/mergingIntList': [3, 1, 2], mergingIntList: [3] },
      { mergingIntList: [3, 1, 2] },
    ],
    [
      'delete an item in a list of primitives and preserve order',
      true,
      { mergingIntList: [1, 2, 3] },
      { '$setElementOrder/mergingIntList': [2, 1], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [2, 1] },
    ],
    [
      'add an item in a list and preserve order',
      true,
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 3 }, { name: 1 }, { name: 2 }],
        mergingList: [{ name: 3, value: 3 }],
      },
      { mergingList: [{ name: 3, value: 3 }, { name: 1 }, { name: 2, value: 2 }] },
    ],
    [
      'add multiple items in a list and preserve order',
      true,
      { mergingList: [{ name: 1 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 4 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
      {
        mergingList: [
          { name: 1 },
          { name: 4, value: 4 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
        ],
      },
    ],
    [
      'delete an item in a list and preserve order',
      true,
      { mergingList: [{ name: 1 }, { name: 3, value: 3 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }],
        mergingList: [{ name: 3, $patch: 'delete' }],
      },
      { mergingList: [{ name: 2, value: 2 }, { name: 1 }] },
    ],
    [
      'change an item in a list and preserve order',
      true,
      { mergingList: [{ name: 1 }, { name: 3, value: 3 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 2 }, { name: 3 }, { name: 1 }],
        mergingList: [{ name: 3, value: 'x' }],
      },
      { mergingList: [{ name: 2, value: 2 }, { name: 3, value: 'x' }, { name: 1 }] },
    ],
    [
      'add and delete an item in a list and preserve order',
      true,
      { mergingList: [{ name: 1 }, { name: 3, value: 3 }, { name: 2, value: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 4 }, { name: 2 }, { name: 1 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, $patch: 'delete' },
        ],
      },
      { mergingList: [{ name: 4, value: 4 }, { name: 2, value: 2 }, { name: 1 }] },
    ],
    [
      'set elements order in a list',
      true,
      {
        mergingList: [
          { name: 1 },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
          { name: 2, value: 2 },
        ],
      },
      { '$setElementOrder/mergingList': [{ name: 4 }, { name: 2 }, { name: 3 }, { name: 1 }] },
      {
        mergingList: [
          { name: 4, value: 4 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
          { name: 1 },
        ],
      },
    ],
    [
      'set elements order in a list with server-only items',
      true,
      {
        mergingList: [
          { name: 1 },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
          { name: 2, value: 2 },
        ],
      },
      { '$setElementOrder/mergingList': [{ name: 4 }, { name: 2 }, { name: 3 }, { name: 1 }] },
      {
        mergingList: [
          { name: 4, value: 4 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
          { name: 1 },
        ],
      },
    ],
    [
      'set elements order in a list with server-only items 2',
      true,
      {
        mergingList: [
          { name: 1 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
        ],
      },
      { '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }, { name: 4 }, { name: 3 }] },
      {
        mergingList: [
          { name: 2, value: 2 },
          { name: 1 },
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
    ],
    [
      'set elements order in a list with server-only items 3',
      true,
      {
        mergingList: [
          { name: 1 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
        ],
      },
      { '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }, { name: 4 }, { name: 3 }] },
      {
        mergingList: [
          { name: 2, value: 2 },
          { name: 1 },
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
    ],
    [
      'set elements order in a int list with server-only items',
      true,
      { mergingIntList: [1, 3, 4, 2] },
      { '$setElementOrder/mergingIntList': [4, 2, 3, 1] },
      { mergingIntList: [4, 2, 3, 1] },
    ],
    [
      'set elements order in a int list with server-only items 3',
      true,
      { mergingIntList: [1, 2, 3, 4] },
      { '$setElementOrder/mergingIntList': [2, 1, 4, 3] },
      { mergingIntList: [2, 1, 4, 3] },
    ],
    [
      'behavior of set element order for a merging list with duplicate',
      true,
      {
        mergingList: [
          { name: 1 },
          { name: 2, value: 'dup1' },
          { name: 3 },
          { name: 2, value: 'dup2' },
          { name: 4 },
        ],
      },
      {
        '$setElementOrder/mergingList': [
          { name: 2 },
          { name: 1 },
          { name: 4 },
          { name: 3 },
          { name: 2 },
        ],
      },
      {
        mergingList: [
          { name: 2, value: 'dup1' },
          { name: 2, value: 'dup2' },
          { name: 1 },
          { name: 4 },
          { name: 3 },
        ],
      },
    ],
    [
      'behavior of set element order for a merging int list with duplicate',
      true,
      { mergingIntList: [1, 2, 3, 2, 4] },
      { '$setElementOrder/mergingIntList': [2, 1, 4, 3, 2] },
      { mergingIntList: [2, 2, 1, 4, 3] },
    ],
    [
      'retainKeys map should clear defaulted field',
      true,
      {},
      { retainKeysMap: { other: 'bar' } },
      { retainKeysMap: { other: 'bar' } },
    ],
    [
      'retainKeys map adds a field and clear a field',
      true,
      { retainKeysMap: { name: 'foo' } },
      { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar' } },
      { retainKeysMap: { name: 'foo', value: 'bar' } },
    ],
    [
      'retainKeys map deletes a field and clears a field',
      true,
      { retainKeysMap: { name: 'foo', value: 'bar' } },
      { retainKeysMap: { $retainKeys: ['name'], value: null } },
      { retainKeysMap: { name: 'foo' } },
    ],
    [
      'retainKeys map replaces non-merging list',
      true,
      {
        retainKeysMap: {
          name: 'foo',
          value: 'bar',
          nonMergingList: [{ name: 'a' }, { name: 'b' }],
        },
      },
      {
        retainKeysMap: {
          $retainKeys: ['name', 'nonMergingList', 'value'],
          nonMergingList: [{ name: 'a' }, { name: 'c' }, { name: 'b' }],
        },
      },
      {
        retainKeysMap: {
          name: 'foo',
          value: 'bar',
          nonMergingList: [{ name: 'a' }, { name: 'c' }, { name: 'b' }],
        },
      },
    ],
    [
      'retainKeys map adds an item and deletes an item in nested merging int list',
      true,
      { retainKeysMap: { name: 'foo', mergingIntList: [1, 2, 3] } },
      {
        retainKeysMap: {
          $retainKeys: ['mergingIntList', 'name'],
          mergingIntList: [5],
          '$deleteFromPrimitiveList/mergingIntList': [2],
          '$setElementOrder/mergingIntList': [1, 3, 5],
        },
      },
      { retainKeysMap: { name: 'foo', mergingIntList: [1, 3, 5] } },
    ],
    [
      'retainKeys map changes an item in nested merging list',
      true,
      { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b', value: 'foo' }] } },
      {
        retainKeysMap: {
          $retainKeys: ['mergingList', 'name'],
          '$setElementOrder/mergingList': [{ name: 'a' }, { name: 'b' }],
          mergingList: [{ name: 'b', value: 'bar' }],
        },
      },
      { retainKeysMap: { name: 'foo', mergingList: [{ name: 'a' }, { name: 'b', value: 'bar' }] } },
    ],
    [
      'retainKeys list of maps clears a field',
      true,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      {},
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    ],
    [
      'retainKeys list of maps changes a field and clear a field',
      true,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'old' }] },
      {
        '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
        retainKeysMergingList: [{ $retainKeys: ['name', 'value'], name: 'foo', value: 'new' }],
      },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'new' }] },
    ],
    [
      'retainKeys list of maps deletes a field and clear a field',
      true,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      {
        '$setElementOrder/retainKeysMergingList': [{ name: 'bar' }, { name: 'foo' }],
        retainKeysMergingList: [{ $retainKeys: ['name'], name: 'foo', value: null }],
      },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
    ],
    [
      'delete and reorder in one list, reorder in another',
      true,
      {
        mergingList: [
          { name: 'a', value: 'a' },
          { name: 'b', value: 'b' },
        ],
        mergeItemPtr: [
          { name: 'c', value: 'c' },
          { name: 'd', value: 'd' },
        ],
      },
      {
        '$setElementOrder/mergingList': [{ name: 'b' }],
        '$setElementOrder/mergeItemPtr': [{ name: 'd' }, { name: 'c' }],
        mergingList: [{ $patch: 'delete', name: 'a' }],
      },
      {
        mergingList: [{ name: 'b', value: 'b' }],
        mergeItemPtr: [
          { name: 'd', value: 'd' },
          { name: 'c', value: 'c' },
        ],
      },
    ],
    // customStrategicMergePatchRawTestCases
    [
      '$setElementOrder contains item that is not present in the list to be merged',
      true,
      { mergingList: [{ name: 1 }, { name: 3 }] },
      {
        '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }],
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
      {
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
    ],
    [
      '$setElementOrder contains item that is not present in the int list to be merged',
      true,
      { mergingIntList: [1, 3] },
      { '$setElementOrder/mergingIntList': [3, 2, 1] },
      { mergingIntList: [3, 1] },
    ],
    [
      'should check if order in $setElementOrder and patch list match',
      true,
      { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
      {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
      null,
      "doesn't match",
    ],
    [
      '$setElementOrder contains item that is not present in the int list to be merged',
      true,
      { mergingIntList: [1, 3, 2] },
      { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] },
      null,
      "doesn't match",
    ],
    [
      'missing merge key should error out',
      true,
      { mergingList: [{ name: 1, value: 'a' }] },
      { mergingList: [{ value: 'b' }] },
      null,
      'does not contain declared merge key',
    ],
    [
      '$deleteFromPrimitiveList of nonexistent item in primitive list should not add the item to the list',
      true,
      { mergingIntList: [1, 2] },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2] },
    ],
    [
      '$deleteFromPrimitiveList on empty primitive list should not add the item to the list',
      true,
      { mergingIntList: null },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: null },
    ],
    [
      '$deleteFromPrimitiveList on nonexistent primitive list should not add the primitive list',
      true,
      { foo: ['bar'] },
      { '$deleteFromPrimitiveList/mergingIntList': [3] },
      { foo: ['bar'] },
    ],
    [
      '$deleteFromPrimitiveList should delete item from a list with merge patch strategy',
      true,
      { mergingIntList: [1, 2, 3] },
      { '$deleteFromPrimitiveList/mergingIntList': [2] },
      { mergingIntList: [1, 3] },
    ],
    [
      '$deleteFromPrimitiveList should delete item from a list without merge patch strategy',
      true,
      { nonMergingIntList: [1, 2, 3] },
      { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
      { nonMergingIntList: [1, 3] },
    ],
    // customStrategicMergePatchTestCaseData (upstream sorts merging lists before comparing)
    [
      'unique scalars when merging lists',
      false,
      { mergingIntList: [1, 2] },
      { mergingIntList: [2, 3] },
      { mergingIntList: [1, 2, 3] },
    ],
    [
      'delete map from nested map',
      false,
      { simpleMap: { key1: 1, key2: 1 } },
      { simpleMap: { $patch: 'delete' } },
      { simpleMap: {} },
    ],
    [
      'delete all items from merging list',
      false,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      { mergingList: [{ $patch: 'replace' }] },
      { mergingList: [] },
    ],
    [
      'merge empty merging lists',
      false,
      { mergingList: [] },
      { mergingList: [] },
      { mergingList: [] },
    ],
    ['delete all keys from map', false, { name: 1, value: 1 }, { $patch: 'replace' }, {}],
    [
      'add key and delete all keys from map',
      false,
      { name: 1, value: 1 },
      { other: 'a', $patch: 'replace' },
      { other: 'a' },
    ],
    [
      'delete all duplicate entries in a merging list',
      false,
      {
        mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }],
      },
      {
        mergingList: [
          { name: 1, $patch: 'delete' },
          { name: 3, $patch: 'delete' },
        ],
      },
      { mergingList: [{ name: 2, value: 'a' }] },
    ],
    [
      'retainKeys map can add a field when no retainKeys directive present',
      false,
      { retainKeysMap: { name: 'foo' } },
      { retainKeysMap: { value: 'bar' } },
      { retainKeysMap: { name: 'foo', value: 'bar' } },
    ],
    [
      'retainKeys map can change a field when no retainKeys directive present',
      false,
      { retainKeysMap: { name: 'foo', value: 'a' } },
      { retainKeysMap: { value: 'b' } },
      { retainKeysMap: { name: 'foo', value: 'b' } },
    ],
    [
      'retainKeys map can delete a field when no retainKeys directive present',
      false,
      { retainKeysMap: { name: 'foo', value: 'a' } },
      { retainKeysMap: { value: null } },
      { retainKeysMap: { name: 'foo' } },
    ],
    [
      'retainKeys map merge an empty map',
      false,
      { retainKeysMap: { name: 'foo', value: 'a' } },
      { retainKeysMap: {} },
      { retainKeysMap: { name: 'foo', value: 'a' } },
    ],
    [
      'retainKeys list can add a field when no retainKeys directive present',
      false,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
      { retainKeysMergingList: [{ name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    ],
    [
      'retainKeys list can change a field when no retainKeys directive present',
      false,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'foo', value: 'b' }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'b' }] },
    ],
    [
      'retainKeys list can delete a field when no retainKeys directive present',
      false,
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'foo', value: null }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
    ],
    [
      'preserve the order from the patch in a merging list',
      false,
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
          { name: 2, other: 'x' },
        ],
      },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
          { name: 2, value: 'b', other: 'x' },
        ],
      },
    ],
    [
      'preserve the order from the patch in a merging list 2',
      false,
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      {
        mergingList: [
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
        ],
      },
      {
        mergingList: [
          { name: 2, value: 'b' },
          { name: 3, value: 'c' },
          { name: 1, value: 'a' },
        ],
      },
    ],
    [
      'preserve the order from the patch in a merging int list',
      false,
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [3, 1, 2] },
      { mergingIntList: [3, 1, 2] },
    ],
    [
      'preserve the order from the patch in a merging int list',
      false,
      { mergingIntList: [1, 2, 3] },
      { mergingIntList: [3, 1] },
      { mergingIntList: [2, 3, 1] },
    ],
    // createStrategicMergePatchTestCaseData
    ['nil original', false, {}, { name: 1, value: 1 }, { name: 1, value: 1 }],
    ['nil patch', false, { name: 1 }, {}, { name: 1 }],
    ['add field to map', false, { name: 1 }, { value: 1 }, { name: 1, value: 1 }],
    [
      'add field and delete field from map',
      false,
      { name: 1 },
      { name: null, value: 1 },
      { value: 1 },
    ],
    [
      'delete field from nested map',
      false,
      { simpleMap: { key1: 1, key2: 1 } },
      { simpleMap: { key2: null } },
      { simpleMap: { key1: 1 } },
    ],
    ['delete all fields from map', false, { name: 1, value: 1 }, { name: null, value: null }, {}],
    [
      'add field and delete all fields from map',
      false,
      { name: 1, value: 1 },
      { name: null, value: null, other: 'a' },
      { other: 'a' },
    ],
    [
      'replace list of scalars',
      false,
      { nonMergingIntList: [1, 2] },
      { nonMergingIntList: [2, 3] },
      { nonMergingIntList: [2, 3] },
    ],
    [
      'delete all maps from merging list',
      false,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      {
        mergingList: [
          { name: 1, $patch: 'delete' },
          { name: 2, $patch: 'delete' },
        ],
      },
      { mergingList: [] },
    ],
    [
      'delete all maps from empty merging list',
      false,
      { mergingList: [{ name: 1 }, { name: 2 }] },
      {
        mergingList: [
          { name: 1, $patch: 'delete' },
          { name: 2, $patch: 'delete' },
        ],
      },
      { mergingList: [] },
    ],
    ['merge empty merging lists', false, { mergingList: [] }, {}, { mergingList: [] }],
    [
      'defined null values should propagate removing original fields',
      false,
      { name: 'original-name', value: 'original-value' },
      { name: 'modified-name', value: null },
      { name: 'modified-name' },
    ],
    [
      'nil patch with retainKeys map',
      false,
      { name: 'a', retainKeysMap: { name: 'foo' } },
      {},
      { name: 'a', retainKeysMap: { name: 'foo' } },
    ],
    [
      'retainKeys map with no change should not be present',
      false,
      { name: 'a', retainKeysMap: { name: 'foo' } },
      { value: 'b' },
      { name: 'a', value: 'b', retainKeysMap: { name: 'foo' } },
    ],
  ];
  for (const [description, exact, original, patch, result, error] of cases) {
    it(description, () => {
      const run = (): JsonObject =>
        strategicMergeMapPatch(structuredClone(original), structuredClone(patch), mergeItemSchema);
      if (error !== undefined) {
        assert.throws(run, (err: Error) => err.message.includes(error));
        return;
      }
      assert.deepStrictEqual(canonical(run(), !exact), canonical(result as JsonObject, !exact));
    });
  }
});

describe('strategic-merge-patch with the core/v1 patch tags', () => {
  const pod = (): JsonObject => ({
    metadata: {
      name: 'p',
      finalizers: ['a', 'b'],
      ownerReferences: [
        { uid: 'u1', name: 'rs1' },
        { uid: 'u2', name: 'rs2' },
      ],
    },
    spec: {
      containers: [
        {
          name: 'c',
          image: 'i:1',
          ports: [{ containerPort: 80 }, { containerPort: 443 }],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          volumeMounts: [{ name: 'v', mountPath: '/v' }],
        },
        { name: 'side', image: 's' },
      ],
      volumes: [{ name: 'v', emptyDir: {} }],
      tolerations: [{ key: 'k1' }, { key: 'k2' }],
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'Initialized', status: 'True' },
      ],
    },
  });
  // [description, patch, the part of the result to check, its expected value]
  const cases: Array<[string, JsonObject, (o: JsonObject) => JsonValue, JsonValue]> = [
    [
      'containers merge by name',
      { spec: { containers: [{ name: 'c', image: 'i:2' }] } },
      (o) => (o.spec as JsonObject).containers,
      [
        {
          name: 'c',
          image: 'i:2',
          ports: [{ containerPort: 80 }, { containerPort: 443 }],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          volumeMounts: [{ name: 'v', mountPath: '/v' }],
        },
        { name: 'side', image: 's' },
      ],
    ],
    [
      'env by name, ports by containerPort, volumeMounts by mountPath',
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [{ name: 'B', value: '3' }],
              ports: [{ containerPort: 8080 }],
              volumeMounts: [{ name: 'w', mountPath: '/w' }],
            },
          ],
        },
      },
      (o) => {
        const c = ((o.spec as JsonObject).containers as JsonObject[])[0];
        return [c.env, c.ports, c.volumeMounts];
      },
      [
        [
          { name: 'A', value: '1' },
          { name: 'B', value: '3' },
        ],
        // An element the live list does not have goes first (mergeSortedSlice).
        [{ containerPort: 8080 }, { containerPort: 80 }, { containerPort: 443 }],
        [
          { name: 'w', mountPath: '/w' },
          { name: 'v', mountPath: '/v' },
        ],
      ],
    ],
    [
      '$patch: delete removes a container by name',
      { spec: { containers: [{ name: 'side', $patch: 'delete' }] } },
      (o) => ((o.spec as JsonObject).containers as JsonObject[]).map((c) => c.name),
      ['c'],
    ],
    [
      '$patch: replace on a merging list',
      { spec: { containers: [{ name: 'n', image: 'x' }, { $patch: 'replace' }] } },
      (o) => (o.spec as JsonObject).containers,
      [{ name: 'n', image: 'x' }],
    ],
    [
      'a list without patchStrategy is replaced (tolerations)',
      { spec: { tolerations: [{ key: 'k3' }] } },
      (o) => (o.spec as JsonObject).tolerations,
      [{ key: 'k3' }],
    ],
    [
      'status conditions merge by type',
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      (o) => (o.status as JsonObject).conditions,
      [
        { type: 'Ready', status: 'True' },
        { type: 'Initialized', status: 'True' },
      ],
    ],
    [
      'ownerReferences merge by uid',
      { metadata: { ownerReferences: [{ uid: 'u2', name: 'rs2b' }] } },
      (o) => (o.metadata as JsonObject).ownerReferences,
      [
        { uid: 'u1', name: 'rs1' },
        { uid: 'u2', name: 'rs2b' },
      ],
    ],
    [
      'finalizers merge as a set of scalars',
      { metadata: { finalizers: ['b', 'c'] } },
      (o) => (o.metadata as JsonObject).finalizers,
      ['a', 'b', 'c'],
    ],
    [
      '$deleteFromPrimitiveList/finalizers',
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      (o) => (o.metadata as JsonObject).finalizers,
      ['b'],
    ],
    [
      '$retainKeys on a volume switches its source',
      {
        spec: {
          volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/h' } }],
        },
      },
      (o) => (o.spec as JsonObject).volumes,
      [{ name: 'v', hostPath: { path: '/h' } }],
    ],
    [
      '$setElementOrder/containers puts side first',
      { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'c' }] } },
      (o) => ((o.spec as JsonObject).containers as JsonObject[]).map((c) => c.name),
      ['side', 'c'],
    ],
    [
      'null deletes a map key, an unmatched null is dropped',
      { metadata: { finalizers: null, labels: { gone: null } } },
      (o) => o.metadata,
      {
        name: 'p',
        ownerReferences: [
          { uid: 'u1', name: 'rs1' },
          { uid: 'u2', name: 'rs2' },
        ],
        labels: {},
      },
    ],
  ];
  for (const [description, patch, pick, expected] of cases) {
    it(description, () => {
      const schema = patchMetaForKind('', 'v1', 'Pod');
      assert.ok(schema);
      assert.deepStrictEqual(pick(strategicMergeMapPatch(pod(), patch, schema)), expected);
    });
  }

  // [description, patch, error text]
  const errors: Array<[string, JsonObject, string]> = [
    [
      'an element without its merge key',
      { spec: { containers: [{ image: 'x' }] } },
      'map: map[image:x] does not contain declared merge key: name',
    ],
    [
      'an unknown $patch directive',
      { spec: { $patch: 'bogus' } },
      'unknown patch type: bogus in map: map[$patch:bogus]',
    ],
    [
      '$patch: merge in a list',
      { spec: { containers: [{ $patch: 'merge' }] } },
      'merging lists cannot yet be specified in the patch',
    ],
    [
      '$retainKeys not listing a patched field',
      { spec: { volumes: [{ name: 'v', $retainKeys: ['name'], hostPath: { path: '/h' } }] } },
      'invalid patch format of retainKeys',
    ],
    [
      '$retainKeys that is not a list',
      { spec: { volumes: [{ name: 'v', $retainKeys: 'name' }] } },
      'invalid patch format of retainKeys',
    ],
    [
      '$setElementOrder that is not a list',
      { spec: { '$setElementOrder/containers': 'c' } },
      'expected a []interface {}, but received a string',
    ],
    [
      '$setElementOrder missing a patched element',
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'c' }],
          containers: [{ name: 'c' }, { name: 'd' }],
        },
      },
      "doesn't match $setElementOrder list",
    ],
    [
      'elements of different types',
      { metadata: { finalizers: ['x', 1] } },
      'list element types are not identical: [[a b] [x 1]]',
    ],
  ];
  for (const [description, patch, message] of errors) {
    it(`${description}: ${message}`, () => {
      const schema = patchMetaForKind('', 'v1', 'Pod');
      assert.ok(schema);
      assert.throws(
        () => strategicMergeMapPatch(pod(), patch, schema),
        (err: Error) => err.message.includes(message),
      );
    });
  }

  it('a list of lists: lists of lists are not supported', () => {
    assert.throws(
      () =>
        strategicMergeMapPatch({ mergingIntList: [] }, { mergingIntList: [[1]] }, mergeItemSchema),
      (err: Error) => err.message === 'lists of lists are not supported',
    );
  });

  it('custom resources have no patch tags', () => {
    assert.strictEqual(patchMetaForKind('example.com', 'v1', 'Widget'), undefined);
  });

  it("an apps/v1 Deployment's containers merge by name, from its OpenAPI definition's tags", () => {
    const schema = patchMetaForKind('apps', 'v1', 'Deployment');
    assert.ok(schema);
    const deployment = {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'a' },
              { name: 's', image: 'b' },
            ],
          },
        },
      },
    };
    const patch = { spec: { template: { spec: { containers: [{ name: 'web', image: 'c' }] } } } };
    assert.deepStrictEqual(strategicMergeMapPatch(deployment, patch, schema), {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'c' },
              { name: 's', image: 'b' },
            ],
          },
        },
      },
    });
  });
});
