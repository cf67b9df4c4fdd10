// Runs store-stream-cases.ts over the in-memory etcd; test/etcd/ported-etcd3.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { storeStreamCases } from './store-stream-cases';

storeStreamCases(memoryEtcd);
