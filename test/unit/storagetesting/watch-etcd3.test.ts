// Runs watch-etcd3-cases.ts over the in-memory etcd; test/etcd/ported-watch.test.ts runs them over a real one.
import { memoryEtcd } from '../../harness/etcd-under-test';
import { watchEtcd3Cases } from './watch-etcd3-cases';

watchEtcd3Cases(memoryEtcd);
