// Test data: the continue-token vectors of k8s.io/apiserver pkg/storage/continue_test.go
// (Test_decodeContinue, release-1.36) with the exact tokens and messages, for key prefix "/test/".
export const vectorKeyPrefix = '/test/';

export interface ContinueVector {
  name: string;
  token: string;
  /** The absolute start key and rv for tokens the apiserver accepts. */
  fromKey?: string;
  rv?: string;
  /** Upstream's exact error message otherwise. */
  error?: string;
}

export const continueVectors: readonly ContinueVector[] = [
  {
    name: 'valid',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
    fromKey: '/test/key',
    rv: '1',
  },
  {
    name: 'root path',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIvIn0',
    fromKey: '/test/',
    rv: '1',
  },
  {
    name: 'empty version',
    token: 'eyJ2IjoiIiwicnYiOjEsInN0YXJ0Ijoia2V5In0',
    error: 'continue key is not valid: server does not recognize this encoded version ',
  },
  {
    name: 'invalid version',
    token: 'eyJ2IjoidjEiLCJydiI6MSwic3RhcnQiOiJrZXkifQ',
    error: 'continue key is not valid: server does not recognize this encoded version v1',
  },
  {
    name: 'invalid RV',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJrZXkifQ',
    error:
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  },
  {
    name: 'no start Key',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIifQ',
    error: 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
  },
  {
    name: 'path traversal - parent',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi9rZXkifQ',
    error: 'continue key is not valid: ../key',
  },
  {
    name: 'path traversal - local',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuL2tleSJ9',
    error: 'continue key is not valid: ./key',
  },
  {
    name: 'path traversal - double parent',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLy4uL2tleSJ9',
    error: 'continue key is not valid: ./../key',
  },
  {
    name: 'path traversal - after parent',
    token: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJrZXkvLi4vLi4ifQ',
    error: 'continue key is not valid: key/../..',
  },
];
