// Runs store-under-test-cases.ts over the in-memory etcd; test/etcd/ported-store.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeUnderTestCases } from './store-under-test-cases';

storeUnderTestCases(memoryEtcd);
