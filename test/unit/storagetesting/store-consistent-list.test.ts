// Runs store-consistent-list-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeConsistentListCases } from './store-consistent-list-cases';

storeConsistentListCases(memoryEtcd);
