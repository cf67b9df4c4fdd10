// The test tables of sigs.k8s.io/structured-merge-diff/v6 merge/*_test.go (v6.3.3) as data:
// each upstream TestCase's operations, expected object and managed fields, and the schemas of
// their parsers. Cases that need version conversion, ignored fields or extract-apply are left out.
import type { SmdCase, SmdParser } from './merge-fixture';

export const parsers: Record<string, SmdParser> = {
  setFieldsParser: {
    schema:
      'types:\n- name: sets\n  map:\n    fields:\n    - name: list\n      type:\n        list:\n          elementType:\n            scalar: string\n          elementRelationship: associative',
    type: 'sets',
  },
  associativeListParser: {
    schema:
      'types:\n- name: type\n  map:\n    fields:\n      - name: list\n        type:\n          namedType: associativeList\n- name: associativeList\n  list:\n    elementType:\n      namedType: myElement\n    elementRelationship: associative\n    keys:\n    - name\n- name: myElement\n  map:\n    fields:\n    - name: name\n      type:\n        scalar: string\n    - name: value\n      type:\n        scalar: numeric\n',
    type: 'type',
  },
  leafFieldsParser: {
    schema:
      'types:\n- name: leafFields\n  map:\n    fields:\n    - name: numeric\n      type:\n        scalar: numeric\n    - name: string\n      type:\n        scalar: string\n    - name: bool\n      type:\n        scalar: boolean',
    type: 'leafFields',
  },
  nestedTypeParser: {
    schema:
      'types:\n- name: type\n  map:\n    fields:\n      - name: listOfLists\n        type:\n          namedType: listOfLists\n      - name: listOfMaps\n        type:\n          namedType: listOfMaps\n      - name: mapOfLists\n        type:\n          namedType: mapOfLists\n      - name: mapOfMaps\n        type:\n          namedType: mapOfMaps\n      - name: mapOfMapsRecursive\n        type:\n          namedType: mapOfMapsRecursive\n      - name: struct\n        type:\n          namedType: struct\n- name: struct\n  map:\n    fields:\n    - name: name\n      type:\n        scalar: string\n    - name: value\n      type:\n        scalar: numeric\n- name: listOfLists\n  list:\n    elementType:\n      map:\n        fields:\n        - name: name\n          type:\n            scalar: string\n        - name: value\n          type:\n            namedType: list\n    elementRelationship: associative\n    keys:\n    - name\n- name: list\n  list:\n    elementType:\n      scalar: string\n    elementRelationship: associative\n- name: listOfMaps\n  list:\n    elementType:\n      map:\n        fields:\n        - name: name\n          type:\n            scalar: string\n        - name: value\n          type:\n            namedType: map\n    elementRelationship: associative\n    keys:\n    - name\n- name: map\n  map:\n    elementType:\n      scalar: string\n    elementRelationship: associative\n- name: mapOfLists\n  map:\n    elementType:\n      namedType: list\n    elementRelationship: associative\n- name: mapOfMaps\n  map:\n    elementType:\n      namedType: map\n    elementRelationship: associative\n- name: mapOfMapsRecursive\n  map:\n    elementType:\n      namedType: mapOfMapsRecursive\n    elementRelationship: associative\n',
    type: 'type',
  },
  portListParser: {
    schema:
      'types:\n- name: v1\n  map:\n    fields:\n      - name: containerPorts\n        type:\n          list:\n            elementType:\n              map:\n                fields:\n                - name: port\n                  type:\n                    scalar: numeric\n                - name: protocol\n                  default: "TCP"\n                  type:\n                    scalar: string\n                - name: name\n                  type:\n                    scalar: string\n            elementRelationship: associative\n            keys:\n            - port\n            - protocol\n',
  },
  bookParser: {
    schema:
      'types:\n- name: v1\n  map:\n    fields:\n      - name: book\n        type:\n          list:\n            elementType:\n              map:\n                fields:\n                - name: chapter\n                  default: 1\n                  type:\n                    scalar: numeric\n                - name: section\n                  default: "A"\n                  type:\n                    scalar: string\n                - name: sentences\n                  type:\n                    list:\n                      elementType:\n                        map:\n                          fields:\n                          - name: page\n                            default: 2.0\n                            type:\n                              scalar: numeric\n                          - name: line\n                            default: 3\n                            type:\n                              scalar: numeric\n                          - name: text\n                            type:\n                              scalar: string\n                      elementRelationship: associative\n                      keys:\n                      - page\n                      - line\n            elementRelationship: associative\n            keys:\n            - chapter\n            - section\n',
  },
  structMultiversionParser: {
    schema:
      'types:\n- name: v1\n  map:\n    fields:\n      - name: struct\n        type:\n          namedType: struct\n      - name: version\n        type:\n          scalar: string\n- name: struct\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n      - name: scalarField_v1\n        type:\n          scalar: string\n      - name: complexField_v1\n        type:\n          namedType: complex\n- name: complex\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n- name: v2\n  map:\n    fields:\n      - name: struct\n        type:\n          namedType: struct_v2\n      - name: version\n        type:\n          scalar: string\n- name: struct_v2\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n      - name: scalarField_v2\n        type:\n          scalar: string\n      - name: complexField_v2\n        type:\n          namedType: complex_v2\n- name: complex_v2\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n- name: v3\n  map:\n    fields:\n      - name: struct\n        type:\n          namedType: struct_v3\n      - name: version\n        type:\n          scalar: string\n- name: struct_v3\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n      - name: scalarField_v3\n        type:\n          scalar: string\n      - name: complexField_v3\n        type:\n          namedType: complex_v3\n- name: complex_v3\n  map:\n    fields:\n      - name: name\n        type:\n          scalar: string\n',
  },
  atomicMapParser: {
    schema:
      'types:\n- name: v1\n  map:\n    fields:\n      - name: atomicMap\n        type:\n          namedType: atomicMap\n- name: atomicMap\n  map:\n    fields:\n      - name: field1\n        type:\n          scalar: string\n      - name: field2\n        type:\n          scalar: string\n    elementRelationship: atomic\n',
  },
  multiversionWithReliantFieldsParser: {
    schema:
      'types:\n- name: v1\n  map:\n    fields:\n      - name: field_foo_rely_on_bar\n        type:\n          scalar: string\n      - name: common_field\n        type:\n          scalar: string\n- name: v2\n  map:\n    fields:\n      - name: required_field_bar\n        type:\n          scalar: string\n      - name: common_field\n        type:\n          scalar: string\n',
  },
  versionDoesntMatchTypeName: {
    schema:
      'types:\n- name: TypeV1\n  map:\n    fields:\n      - name: field_foo_rely_on_bar\n        type:\n          scalar: string\n      - name: common_field\n        type:\n          scalar: string\n- name: TypeV2\n  map:\n    fields:\n      - name: required_field_bar\n        type:\n          scalar: string\n      - name: common_field\n        type:\n          scalar: string\n',
  },
  preserveUnknownParser: {
    schema:
      'types:\n- name: type\n  map:\n    fields:\n      - name: num\n        type:\n          scalar: numeric\n    elementType:\n      scalar: string\n',
    type: 'type',
  },
  duplicatesParser: {
    schema:
      'types:\n- name: type\n  map:\n    fields:\n      - name: list\n        type:\n          namedType: associativeList\n      - name: unrelated\n        type:\n          scalar: numeric\n      - name: set\n        type:\n          namedType: set\n- name: associativeList\n  list:\n    elementType:\n      namedType: myElement\n    elementRelationship: associative\n    keys:\n    - name\n- name: myElement\n  map:\n    fields:\n    - name: name\n      type:\n        scalar: string\n    - name: value1\n      type:\n        scalar: numeric\n    - name: value2\n      type:\n        scalar: numeric\n- name: set\n  list:\n    elementType:\n      scalar: numeric\n    elementRelationship: associative\n',
    type: 'type',
  },
};

export const cases: Record<string, SmdCase[]> = {
  'merge/set_test.go': [
    {
      name: 'apply_twice',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_no_overlap',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- aprime\n- c\n- cprime\n',
        },
      ],
      object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'aprime',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'cprime',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_no_overlap_and_different_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- aprime\n- c\n- cprime\n',
        },
      ],
      object: 'list:\n- a\n- b\n- aprime\n- c\n- d\n- cprime\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'aprime',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'cprime',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_with_overlap',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_with_overlap_and_different_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_twice_reorder',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- d\n- c\n- b\n',
        },
      ],
      object: 'list:\n- a\n- d\n- c\n- b\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_reorder',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'list:\n- a\n- d\n- c\n- b\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_update_apply_reorder_across_versions',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'list:\n- a\n- d\n- c\n- b\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v2',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n- d\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'b',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_twice_remove',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
      ],
      object: 'list:\n- a\n- c\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
    {
      name: 'apply_twice_remove_across_versions',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v2',
          object: 'list:\n- a\n- c\n- e\n',
        },
      ],
      object: 'list:\n- a\n- c\n- e\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                value: 'a',
              },
            ],
            [
              'list',
              {
                value: 'c',
              },
            ],
            [
              'list',
              {
                value: 'e',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'setFieldsParser',
    },
  ],
  'merge/key_test.go': [
    {
      name: 'removing_obsolete_applied_structs',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- name: b\n  value: 2\n',
        },
      ],
      object: 'list:\n- name: b\n  value: 2\n',
      managed: {
        default: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'associativeListParser',
    },
  ],
  'merge/leaf_test.go': [
    {
      name: 'apply_twice',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "string"\nbool: false\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      managed: {
        default: {
          paths: [['numeric'], ['string'], ['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_twice_different_versions',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v2',
          object: 'numeric: 2\nstring: "string"\nbool: false\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      managed: {
        default: {
          paths: [['numeric'], ['string'], ['bool']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_update_apply_no_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_update_apply_no_conflict_different_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'numeric: 1\nstring: "string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_update_apply_with_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "controller string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
          conflicts: [
            {
              manager: 'controller',
              path: ['string'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_update_apply_with_conflict_across_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'numeric: 1\nstring: "controller string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
          conflicts: [
            {
              manager: 'controller',
              path: ['string'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_twice_remove',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\nbool: false\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "new string"\n',
        },
      ],
      object: 'string: "new string"\n',
      managed: {
        default: {
          paths: [['string']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'update_apply_omits',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'numeric: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: '',
        },
      ],
      object: 'numeric: 1\n',
      managed: {
        controller: {
          paths: [['numeric']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_twice_remove_different_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\nbool: false\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v2',
          object: 'string: "new string"\n',
        },
      ],
      object: 'string: "new string"\n',
      managed: {
        default: {
          paths: [['string']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'update_remove_empty_set',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'string: "new string"\n',
        },
      ],
      object: 'string: "new string"\n',
      managed: {
        controller: {
          paths: [['string']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'leafFieldsParser',
    },
    {
      name: 'apply_remove_empty_set',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "string"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: '',
        },
      ],
      object: '',
      managed: {},
      parser: 'leafFieldsParser',
    },
  ],
  'merge/nested_test.go': [
    {
      name: 'listOfLists_change_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n  value:\n  - a\n  - c\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - a\n  - c\n',
      managed: {
        default: {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              {
                value: 'a',
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'listOfLists_change_key_and_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: b\n  value:\n  - a\n  - c\n',
        },
      ],
      object: 'listOfLists:\n- name: b\n  value:\n  - a\n  - c\n',
      managed: {
        default: {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'a',
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'listOfMaps_change_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfMaps:\n- name: a\n  value:\n    b: "x"\n    c: "y"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfMaps:\n- name: a\n  value:\n    a: "x"\n    c: "z"\n',
        },
      ],
      object: 'listOfMaps:\n- name: a\n  value:\n    a: "x"\n    c: "z"\n',
      managed: {
        default: {
          paths: [
            [
              'listOfMaps',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              'a',
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              'c',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'listOfMaps_change_key_and_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfMaps:\n- name: a\n  value:\n    b: "x"\n    c: "y"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'listOfMaps:\n- name: b\n  value:\n    a: "x"\n    c: "z"\n',
        },
      ],
      object: 'listOfMaps:\n- name: b\n  value:\n    a: "x"\n    c: "z"\n',
      managed: {
        default: {
          paths: [
            [
              'listOfMaps',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              'a',
            ],
            [
              'listOfMaps',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              'c',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'mapOfLists_change_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfLists:\n  a:\n  - b\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfLists:\n  a:\n  - a\n  - c\n',
        },
      ],
      object: 'mapOfLists:\n  a:\n  - a\n  - c\n',
      managed: {
        default: {
          paths: [
            ['mapOfLists', 'a'],
            [
              'mapOfLists',
              'a',
              {
                value: 'a',
              },
            ],
            [
              'mapOfLists',
              'a',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'mapOfLists_change_key_and_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfLists:\n  a:\n  - b\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfLists:\n  b:\n  - a\n  - c\n',
        },
      ],
      object: 'mapOfLists:\n  b:\n  - a\n  - c\n',
      managed: {
        default: {
          paths: [
            ['mapOfLists', 'b'],
            [
              'mapOfLists',
              'b',
              {
                value: 'a',
              },
            ],
            [
              'mapOfLists',
              'b',
              {
                value: 'c',
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'mapOfMaps_change_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMaps:\n  a:\n    b: "x"\n    c: "y"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMaps:\n  a:\n    a: "x"\n    c: "z"\n',
        },
      ],
      object: 'mapOfMaps:\n  a:\n    a: "x"\n    c: "z"\n',
      managed: {
        default: {
          paths: [
            ['mapOfMaps', 'a'],
            ['mapOfMaps', 'a', 'a'],
            ['mapOfMaps', 'a', 'c'],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'mapOfMaps_change_key_and_value',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMaps:\n  a:\n    b: "x"\n    c: "y"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMaps:\n  b:\n    a: "x"\n    c: "z"\n',
        },
      ],
      object: 'mapOfMaps:\n  b:\n    a: "x"\n    c: "z"\n',
      managed: {
        default: {
          paths: [
            ['mapOfMaps', 'b'],
            ['mapOfMaps', 'b', 'a'],
            ['mapOfMaps', 'b', 'c'],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'mapOfMapsRecursive_change_middle_key',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'mapOfMapsRecursive:\n  a:\n    d:\n      c:\n',
        },
      ],
      object: 'mapOfMapsRecursive:\n  a:\n    d:\n      c:\n',
      managed: {
        default: {
          paths: [
            ['mapOfMapsRecursive', 'a'],
            ['mapOfMapsRecursive', 'a', 'd'],
            ['mapOfMapsRecursive', 'a', 'd', 'c'],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_remove_all',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: '',
        },
      ],
      object: '',
      managed: {},
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_remove_dangling',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n',
        },
      ],
      object: 'struct:\n',
      managed: {
        default: {
          paths: [['struct']],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_update_remove_all',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: '',
        },
      ],
      object: 'struct:\n  value: 1\n',
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_update_dict_dangling',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct: {}\n',
        },
      ],
      object: 'struct:\n  value: 1\n',
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_update_dict_null',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n',
        },
      ],
      object: 'struct:\n  value: 1\n',
      parser: 'nestedTypeParser',
    },
    {
      name: 'struct_apply_update_took_over',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n  name: a\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'struct:\n  name: b\n  value: 1\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'struct:\n',
        },
      ],
      object: 'struct:\n  name: b\n  value: 1\n',
      parser: 'nestedTypeParser',
    },
  ],
  'merge/deduced_test.go': [
    {
      name: 'leaf_apply_twice',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "string"\nbool: false\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: false\n',
      managed: {
        default: {
          paths: [['numeric'], ['string'], ['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'leaf_apply_update_apply_no_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'leaf_apply_update_apply_with_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "controller string"\nbool: true\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
          conflicts: [
            {
              manager: 'controller',
              path: ['string'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 2\nstring: "user string"\n',
        },
      ],
      object: 'numeric: 2\nstring: "user string"\nbool: true\n',
      managed: {
        default: {
          paths: [['numeric'], ['string']],
          apiVersion: 'v1',
          applied: false,
        },
        controller: {
          paths: [['bool']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'leaf_apply_twice_remove',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'numeric: 1\nstring: "string"\nbool: false\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "new string"\n',
        },
      ],
      object: 'string: "new string"\n',
      managed: {
        default: {
          paths: [['string']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'leaf_update_remove_empty_set',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "string"\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'string: "new string"\n',
        },
      ],
      object: 'string: "new string"\n',
      managed: {
        controller: {
          paths: [['string']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'apply_twice_list_is_atomic',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- d\n- c\n- b\n',
        },
      ],
      object: 'list:\n- a\n- d\n- c\n- b\n',
      managed: {
        default: {
          paths: [['list']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'apply_update_apply_list',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- c\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n- d\n',
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'list:\n- a\n- b\n- c\n',
        },
      ],
      object: 'list:\n- a\n- b\n- c\n',
      managed: {
        default: {
          paths: [['list']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'leaf_apply_remove_empty_set',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'string: "string"\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: '',
        },
      ],
      object: '',
      managed: {},
      parser: 'DeducedParser',
    },
    {
      name: 'apply_update_apply_nested',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object:
            'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v1',
          object:
            'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object:
            'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n',
          conflicts: [
            {
              manager: 'controller',
              path: ['b', 'c', 'd'],
            },
            {
              manager: 'controller',
              path: ['b', 'c', 'e'],
            },
            {
              manager: 'controller',
              path: ['b', 'c', 'f'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v1',
          object:
            'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n',
        },
      ],
      object:
        'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      parser: 'DeducedParser',
    },
    {
      name: 'apply_update_apply_nested_different_version',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object:
            'a: 1\nb:\n  c:\n    d: 2\n    e:\n    - 1\n    - 2\n    - 3\n    f:\n    - name: n\n      value: 1\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object:
            'a: 1\nb:\n  c:\n    d: 3\n    e:\n    - 1\n    - 2\n    - 3\n    - 4\n    f:\n    - name: n\n      value: 2\ng: 5\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v3',
          object:
            'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n',
          conflicts: [
            {
              manager: 'controller',
              path: ['b', 'c', 'd'],
            },
            {
              manager: 'controller',
              path: ['b', 'c', 'e'],
            },
            {
              manager: 'controller',
              path: ['b', 'c', 'f'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'default',
          apiVersion: 'v3',
          object:
            'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\n',
        },
      ],
      object:
        'a: 2\nb:\n  c:\n    d: 2\n    e:\n    - 3\n    - 2\n    - 1\n    f:\n    - name: n\n      value: 1\ng: 5\n',
      parser: 'DeducedParser',
    },
  ],
  'merge/default_keys_test.go': [
    {
      name: 'apply_missing_defaulted_key_A',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n',
        },
      ],
      object: 'containerPorts:\n- port: 80\n',
      managed: {
        default: {
          paths: [
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
              'port',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'portListParser',
    },
    {
      name: 'apply_missing_defaulted_key_B',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP\n',
        },
      ],
      object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: UDP\n',
      managed: {
        default: {
          paths: [
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
              'port',
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'UDP',
                },
              },
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'UDP',
                },
              },
              'port',
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'UDP',
                },
              },
              'protocol',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'portListParser',
    },
    {
      name: 'apply_missing_defaulted_key_with_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n  protocol: TCP\n  name: foo\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n  name: bar\n',
          conflicts: [
            {
              manager: 'apply-one',
              path: [
                'containerPorts',
                {
                  key: {
                    port: 80,
                    protocol: 'TCP',
                  },
                },
                'name',
              ],
            },
          ],
        },
      ],
      object: 'containerPorts:\n- port: 80\n  protocol: TCP\n  name: foo\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
              'port',
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
              'protocol',
            ],
            [
              'containerPorts',
              {
                key: {
                  port: 80,
                  protocol: 'TCP',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'portListParser',
    },
    {
      name: 'apply_missing_undefaulted_defaulted_key',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'containerPorts:\n- protocol: TCP\n  name: A\n',
        },
      ],
      object: 'containerPorts:\n- protocol: TCP\n  name: A\n',
      managed: {
        default: {
          paths: [
            [
              'containerPorts',
              {
                key: {
                  protocol: 'TCP',
                },
              },
            ],
            [
              'containerPorts',
              {
                key: {
                  protocol: 'TCP',
                },
              },
              'name',
            ],
            [
              'containerPorts',
              {
                key: {
                  protocol: 'TCP',
                },
              },
              'protocol',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'portListParser',
    },
    {
      name: 'apply_missing_defaulted_key_ambiguous_A',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n- port: 80\n',
        },
      ],
      parser: 'portListParser',
      expectError: true,
    },
    {
      name: 'apply_missing_defaulted_key_ambiguous_B',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'containerPorts:\n- port: 80\n- port: 80\n  protocol: TCP\n',
        },
      ],
      parser: 'portListParser',
      expectError: true,
    },
    {
      name: 'apply_missing_every_key_nested',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'book:\n- sentences:\n  - text: blah\n',
        },
      ],
      object: 'book:\n- sentences:\n  - text: blah\n',
      managed: {
        default: {
          paths: [
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
            ],
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
              'sentences',
              {
                key: {
                  page: 2,
                  line: 3,
                },
              },
            ],
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
              'sentences',
              {
                key: {
                  page: 2,
                  line: 3,
                },
              },
              'text',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'bookParser',
    },
    {
      name: 'apply_integer_key_with_float_default',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'book:\n- sentences:\n  - text: blah\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'book:\n- sentences:\n  - text: blah\n    page: 2\n',
        },
      ],
      object: 'book:\n- sentences:\n  - text: blah\n    page: 2\n',
      managed: {
        default: {
          paths: [
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
            ],
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
              'sentences',
              {
                key: {
                  page: 2,
                  line: 3,
                },
              },
            ],
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
              'sentences',
              {
                key: {
                  page: 2,
                  line: 3,
                },
              },
              'text',
            ],
            [
              'book',
              {
                key: {
                  chapter: 1,
                  section: 'A',
                },
              },
              'sentences',
              {
                key: {
                  page: 2,
                  line: 3,
                },
              },
              'page',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'bookParser',
    },
  ],
  'merge/multiple_appliers_test.go': [
    {
      name: 'remove_one',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n- name: b\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'list:\n- name: c\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'list:\n- name: a\n',
        },
      ],
      object: 'list:\n- name: a\n- name: c\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'c',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'c',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'associativeListParser',
    },
    {
      name: 'same_value_no_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value: 0\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'list:\n- name: a\n  value: 0\n',
        },
      ],
      object: 'list:\n- name: a\n  value: 0\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'associativeListParser',
    },
    {
      name: 'change_value_yes_conflict',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value: 0\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'list:\n- name: a\n  value: 1\n',
          conflicts: [
            {
              manager: 'apply-one',
              path: [
                'list',
                {
                  key: {
                    name: 'a',
                  },
                },
                'value',
              ],
            },
          ],
        },
      ],
      object: 'list:\n- name: a\n  value: 0\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'associativeListParser',
    },
    {
      name: 'remove_one_keep_one',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n- name: b\n- name: c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'list:\n- name: c\n- name: d\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'list:\n- name: a\n',
        },
      ],
      object: 'list:\n- name: a\n- name: c\n- name: d\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'c',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'd',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'c',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'd',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'associativeListParser',
    },
    {
      name: 'remove_one_keep_one_with_two_sub_items',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: b\n  value:\n  - d\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'listOfLists:\n- name: a\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'remove_one_keep_one_with_dangling_subitem',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: b\n  value:\n  - d\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n  - d\n  - e\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'listOfLists:\n- name: a\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n  - e\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
        controller: {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'e',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'remove_one_with_dangling_subitem_keep_one',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n- name: b\n  value:\n  - c\n  - d\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'listOfLists:\n- name: a\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              {
                value: 'b',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'remove_one_with_managed_subitem_keep_one',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
        },
        {
          op: 'update',
          manager: 'controller',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: a\n  value:\n  - b\n- name: b\n  value:\n  - c\n  - d\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'listOfLists:\n- name: a\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n  value:\n  - b\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'value',
              {
                value: 'b',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'remove_one_keep_one_with_sub_item',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - c\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'listOfLists:\n- name: b\n  value:\n  - d\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v3',
          object: 'listOfLists:\n- name: a\n',
        },
      ],
      object: 'listOfLists:\n- name: a\n- name: b\n  value:\n  - d\n',
      managed: {
        'apply-one': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'apply-two': {
          paths: [
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'listOfLists',
              {
                key: {
                  name: 'b',
                },
              },
              'value',
              {
                value: 'd',
              },
            ],
          ],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'multiple_appliers_recursive_map',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'mapOfMapsRecursive:\n  a:\n    b:\n  c:\n    d:\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'mapOfMapsRecursive:\n  a:\n  c:\n    d:\n',
        },
        {
          op: 'update',
          manager: 'controller-one',
          apiVersion: 'v3',
          object: 'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n  c:\n    d:\n      e:\n',
        },
        {
          op: 'update',
          manager: 'controller-two',
          apiVersion: 'v2',
          object:
            'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n        d:\n  c:\n    d:\n      e:\n        f:\n',
        },
        {
          op: 'update',
          manager: 'controller-one',
          apiVersion: 'v3',
          object:
            'mapOfMapsRecursive:\n  a:\n    b:\n      c:\n        d:\n          e:\n  c:\n    d:\n      e:\n        f:\n          g:\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v4',
          object: 'mapOfMapsRecursive:\n',
        },
      ],
      object: 'mapOfMapsRecursive:\n  a:\n  c:\n    d:\n      e:\n        f:\n          g:\n',
      managed: {
        'apply-one': {
          paths: [['mapOfMapsRecursive']],
          apiVersion: 'v4',
          applied: false,
        },
        'apply-two': {
          paths: [
            ['mapOfMapsRecursive', 'a'],
            ['mapOfMapsRecursive', 'c'],
            ['mapOfMapsRecursive', 'c', 'd'],
          ],
          apiVersion: 'v2',
          applied: false,
        },
        'controller-one': {
          paths: [
            ['mapOfMapsRecursive', 'c', 'd', 'e'],
            ['mapOfMapsRecursive', 'c', 'd', 'e', 'f', 'g'],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'controller-two': {
          paths: [['mapOfMapsRecursive', 'c', 'd', 'e', 'f']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'nestedTypeParser',
    },
    {
      name: 'multiple_appliers_recursive_map_deduced',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'a:\n  b:\nc:\n  d:\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v2',
          object: 'a:\nc:\n  d:\n',
        },
        {
          op: 'update',
          manager: 'controller-one',
          apiVersion: 'v3',
          object: 'a:\n  b:\n    c:\nc:\n  d:\n    e:\n',
        },
        {
          op: 'update',
          manager: 'controller-two',
          apiVersion: 'v2',
          object: 'a:\n  b:\n    c:\n      d:\nc:\n  d:\n    e:\n      f:\n',
        },
        {
          op: 'update',
          manager: 'controller-one',
          apiVersion: 'v3',
          object:
            'a:\n  b:\n    c:\n      d:\n        e:\nc:\n  d:\n    e:\n      f:\n        g:\n',
        },
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v4',
          object: '',
        },
      ],
      object: 'a:\nc:\n  d:\n    e:\n      f:\n        g:\n',
      managed: {
        'apply-two': {
          paths: [['a'], ['c'], ['c', 'd']],
          apiVersion: 'v2',
          applied: false,
        },
        'controller-one': {
          paths: [
            ['c', 'd', 'e'],
            ['c', 'd', 'e', 'f', 'g'],
          ],
          apiVersion: 'v3',
          applied: false,
        },
        'controller-two': {
          paths: [['c', 'd', 'e', 'f']],
          apiVersion: 'v2',
          applied: false,
        },
      },
      parser: 'DeducedParser',
    },
    {
      name: 'force',
      ops: [
        {
          op: 'apply',
          manager: 'apply-one',
          apiVersion: 'v1',
          object: 'atomicMap:\n  field1: a\n',
        },
        {
          op: 'apply',
          manager: 'apply-two',
          apiVersion: 'v1',
          object: 'atomicMap:\n  field2: b\n',
          conflicts: [
            {
              manager: 'apply-one',
              path: ['atomicMap'],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'apply-two',
          apiVersion: 'v1',
          object: 'atomicMap:\n  field2: b\n',
        },
      ],
      object: 'atomicMap:\n  field2: b\n',
      managed: {
        'apply-two': {
          paths: [['atomicMap']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'atomicMapParser',
    },
  ],
  'merge/preserve_unknown_test.go': [
    {
      name: 'preserve_unknown_fields',
      ops: [
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'num: 5\nunknown: value\n',
        },
        {
          op: 'apply',
          manager: 'default',
          apiVersion: 'v1',
          object: 'num: 6\nunknown: new\n',
        },
      ],
      object: 'num: 6\nunknown: new\n',
      managed: {
        default: {
          paths: [['num'], ['unknown']],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'preserveUnknownParser',
    },
  ],
  'merge/duplicates_test.go': [
    {
      name: 'sets/ownership/duplicates',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'set: [1, 1, 3, 4]\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['set'],
            [
              'set',
              {
                value: 1,
              },
            ],
            [
              'set',
              {
                value: 3,
              },
            ],
            [
              'set',
              {
                value: 4,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'sets/ownership/add_duplicate',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'set: [1, 3, 4]\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object: 'set: [1, 1, 3, 4]\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['set'],
            [
              'set',
              {
                value: 3,
              },
            ],
            [
              'set',
              {
                value: 4,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'set',
              {
                value: 1,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'sets/ownership/remove_duplicate',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'set: [1, 1, 3, 4]\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object: 'set: [1, 3, 4]\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['set'],
            [
              'set',
              {
                value: 3,
              },
            ],
            [
              'set',
              {
                value: 4,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'set',
              {
                value: 1,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'sets/merging/remove_duplicate',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'set: [1, 1, 3, 4]\n',
        },
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'set: [1]\n',
          conflicts: [
            {
              manager: 'updater',
              path: [
                'set',
                {
                  value: 1,
                },
              ],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'set: [1]\n',
        },
      ],
      object: 'set: [1, 3, 4]\n',
      managed: {
        updater: {
          paths: [
            ['set'],
            [
              'set',
              {
                value: 3,
              },
            ],
            [
              'set',
              {
                value: 4,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [
            [
              'set',
              {
                value: 1,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'sets/merging/ignore_duplicate',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'set: [1, 1, 3, 4]\n',
        },
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'set: [5]\n',
        },
      ],
      object: 'set: [1, 1, 3, 4, 5]\n',
      managed: {
        updater: {
          paths: [
            ['set'],
            [
              'set',
              {
                value: 1,
              },
            ],
            [
              'set',
              {
                value: 3,
              },
            ],
            [
              'set',
              {
                value: 4,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [
            [
              'set',
              {
                value: 5,
              },
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/ownership/duplicated_items',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
      ],
      managed: {
        updater: {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/ownership/change_duplicated_items',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/ownership/change_fields_duplicated_items',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object:
            'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n  value2: 3 # New field\n- name: b\n  value1: 3\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/ownership/add_duplicated_items_different_field',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: b\n  value1: 3\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object:
            'list:\n- name: a\n  value1: 1\n- name: a\n  value2: 3 # New field\n- name: b\n  value1: 3\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/ownership/add_unrelated_to_list_with_duplicates',
      ops: [
        {
          op: 'update',
          manager: 'updater-one',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n',
        },
        {
          op: 'update',
          manager: 'updater-two',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
      ],
      managed: {
        'updater-one': {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        'updater-two': {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/merge/unrelated_with_duplicated_items',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'forceApply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'unrelated: 5\n',
        },
      ],
      object:
        'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\nunrelated: 5\n',
      managed: {
        updater: {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [['unrelated']],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/merge/change_duplicated_item',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 3\n',
          conflicts: [
            {
              manager: 'updater',
              path: [
                'list',
                {
                  key: {
                    name: 'a',
                  },
                },
              ],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 3\n',
        },
      ],
      object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n',
      managed: {
        updater: {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/merge/unchanged_duplicated_item',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 2\n',
          conflicts: [
            {
              manager: 'updater',
              path: [
                'list',
                {
                  key: {
                    name: 'a',
                  },
                },
              ],
            },
          ],
        },
        {
          op: 'forceApply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 3\n',
        },
      ],
      object: 'list:\n- name: a\n  value1: 3\n- name: b\n  value1: 3\n',
      managed: {
        updater: {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/merge/change_non_duplicated_item',
      ops: [
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'forceApply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: b\n  value1: 4\n',
        },
      ],
      object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 4\n',
      managed: {
        updater: {
          paths: [
            ['list'],
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
        applier: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
      },
      parser: 'duplicatesParser',
    },
    {
      name: 'list/merge/apply_update_duplicates_apply_without',
      ops: [
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: b\n  value1: 3\n',
        },
        {
          op: 'update',
          manager: 'updater',
          apiVersion: 'v1',
          object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
        },
        {
          op: 'apply',
          manager: 'applier',
          apiVersion: 'v1',
          object: 'list:\n- name: b\n  value1: 3\n',
        },
      ],
      object: 'list:\n- name: a\n  value1: 1\n- name: a\n  value1: 2\n- name: b\n  value1: 3\n',
      managed: {
        applier: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'name',
            ],
            [
              'list',
              {
                key: {
                  name: 'b',
                },
              },
              'value1',
            ],
          ],
          apiVersion: 'v1',
          applied: true,
        },
        updater: {
          paths: [
            [
              'list',
              {
                key: {
                  name: 'a',
                },
              },
            ],
          ],
          apiVersion: 'v1',
          applied: false,
        },
      },
      parser: 'duplicatesParser',
    },
  ],
};
