// Runs store-consistency-checker-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeConsistencyCheckerCases } from './store-consistency-checker-cases';

storeConsistencyCheckerCases(memoryEtcd);
