// Runs store-list-resource-version-match-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeListResourceVersionMatchCases } from './store-list-resource-version-match-cases';

storeListResourceVersionMatchCases(memoryEtcd);
