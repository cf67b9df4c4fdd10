// Runs store-mark-consistent-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeMarkConsistentCases } from './store-mark-consistent-cases';

storeMarkConsistentCases(memoryEtcd);
