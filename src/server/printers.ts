// Mirrors kubernetes/kubernetes pkg/printers/internalversion/printers.go (AddHandlers' column
// definitions for pods, namespaces and configmaps; printPod, printNamespace, printConfigMap,
// translateTimestampSince) and pkg/printers/tablegenerator.go GenerateTable, as kube-apiserver's
// TableConvertor calls it (Wide: true: every column, -o wide picks by priority on the client).
// Descriptions are the swagger doc strings upstream reads (ObjectMeta, PodStatus, PodSpec,
// ConfigMap). Deliberate difference: objects are JSON, so every field is read defensively.
import { humanDuration } from './duration';

/** metav1.TableColumnDefinition; every field is written (no omitempty). */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** metav1.TableRowCondition. */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** metav1.TableRow; `object` is the source object until the convertor applies includeObject. */
export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  object: unknown;
}

/** metav1.ObjectMeta{}.SwaggerDoc()["name"]. */
export const objectMetaNameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]. */
export const objectMetaCreationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** A column definition (Format and Priority default to Go's zero values). */
export function column(
  name: string,
  type: string,
  description: string,
  o: { format?: string; priority?: number } = {},
): TableColumnDefinition {
  return { name, type, format: o.format ?? '', description, priority: o.priority ?? 0 };
}

/** The Name column every table starts with. */
export const nameColumnDefinition = column('Name', 'string', objectMetaNameDescription, {
  format: 'name',
});
/** The Age column. */
export const ageColumn = column('Age', 'string', objectMetaCreationTimestampDescription);

/** podColumnDefinitions. */
export const podColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column(
    'Restarts',
    'string',
    'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
  ),
  ageColumn,
  column(
    'IP',
    'string',
    'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
    { priority: 1 },
  ),
  column(
    'Node',
    'string',
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
    { priority: 1 },
  ),
  column(
    'Nominated Node',
    'string',
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
    { priority: 1 },
  ),
  column(
    'Readiness Gates',
    'string',
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    { priority: 1 },
  ),
];

/** namespaceColumnDefinitions. */
export const namespaceColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Status', 'string', 'The status of the namespace'),
  ageColumn,
];

/** configMapColumnDefinitions (Data is declared a string column, its cells are integers). */
export const configMapColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column(
    'Data',
    'string',
    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
  ),
  ageColumn,
];

/** An object as JSON. */
export type Json = Record<string, unknown>;

export function obj(v: unknown): Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

export function arr(v: unknown): Json[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

const rfc3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * metav1.Time from its JSON / query form (time.Parse(time.RFC3339)): epoch ms, `null` for the
 * zero time ("" or "null"), undefined when it does not parse.
 */
export function parseTime(s: string): number | null | undefined {
  if (s === '' || s === 'null') return null;
  const m = rfc3339.exec(s);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, sec, frac, , sign, oh, om] = m;
  const ms =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec)) +
    (frac ? Math.trunc(Number(frac) * 1000) : 0);
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60000 : 0;
  return ms - offset;
}

/** translateTimestampSince: HumanDuration since the timestamp, `<unknown>` for the zero time. */
export function translateTimestampSince(timestamp: unknown, now: number): string {
  const t = typeof timestamp === 'string' ? parseTime(timestamp) : null;
  if (t === null || t === undefined) return '<unknown>';
  return humanDuration(now - t);
}

const podSuccessConditions: TableRowCondition[] = [
  {
    type: 'Completed',
    status: 'True',
    reason: 'Succeeded',
    message: 'The pod has completed successfully.',
  },
];
const podFailedConditions: TableRowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
];

/** podutil.IsRestartableInitContainer: a sidecar (restartPolicy Always). */
function isRestartableInitContainer(c: Json | undefined): boolean {
  return c !== undefined && c.restartPolicy === 'Always';
}

function hasCondition(conditions: Json[], type: string): boolean {
  return conditions.some((c) => c.type === type && c.status === 'True');
}

/** A container's lastState.terminated.finishedAt when later than `latest` (metav1.Time.Before). */
function laterFinish(container: Json, latest: number | null): number | null {
  const last = obj(container.lastState);
  if (last.terminated === undefined || last.terminated === null) return latest;
  const t = parseTime(str(obj(last.terminated).finishedAt));
  // A zero (or unparsable) finishedAt is never after anything.
  if (t === null || t === undefined) return latest;
  return latest === null || latest < t ? t : latest;
}

/** printPod. */
export function printPod(pod: Json, now: number): TableRow[] {
  const meta = obj(pod.metadata);
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const conditions = arr(status.conditions);
  let restarts = 0;
  let restartableInitContainerRestarts = 0;
  let totalContainers = arr(spec.containers).length;
  let readyContainers = 0;
  let lastRestartDate: number | null = null;
  let lastRestartableInitContainerRestartDate: number | null = null;

  const podPhase = str(status.phase);
  let reason = podPhase;
  if (str(status.reason) !== '') reason = str(status.reason);
  // {type: PodScheduled, reason: SchedulingGated} shows as SchedulingGated.
  for (const c of conditions) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const row: TableRow = { cells: [], object: pod };
  if (podPhase === 'Succeeded') row.conditions = podSuccessConditions;
  else if (podPhase === 'Failed') row.conditions = podFailedConditions;

  const initContainerSpecs = arr(spec.initContainers);
  const initContainers = new Map<string, Json>();
  for (const c of initContainerSpecs) {
    initContainers.set(str(c.name), c);
    if (isRestartableInitContainer(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += int(container.restartCount);
    lastRestartDate = laterFinish(container, lastRestartDate);
    const restartable = isRestartableInitContainer(initContainers.get(str(container.name)));
    if (restartable) {
      restartableInitContainerRestarts += int(container.restartCount);
      lastRestartableInitContainerRestartDate = laterFinish(
        container,
        lastRestartableInitContainerRestartDate,
      );
    }
    const state = obj(container.state);
    const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
    const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
    if (terminated !== undefined && int(terminated.exitCode) === 0) continue;
    if (restartable && container.started === true) {
      if (container.ready === true) readyContainers++;
      continue;
    }
    if (terminated !== undefined) {
      // Initialization failed.
      if (str(terminated.reason).length === 0) {
        reason =
          int(terminated.signal) !== 0
            ? `Init:Signal:${int(terminated.signal)}`
            : `Init:ExitCode:${int(terminated.exitCode)}`;
      } else reason = `Init:${str(terminated.reason)}`;
    } else if (
      waiting !== undefined &&
      str(waiting.reason).length > 0 &&
      waiting.reason !== 'PodInitializing'
    ) {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initContainerSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(conditions, 'Initialized')) {
    restarts = restartableInitContainerRestarts;
    lastRestartDate = lastRestartableInitContainerRestartDate;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += int(container.restartCount);
      lastRestartDate = laterFinish(container, lastRestartDate);
      const state = obj(container.state);
      const terminated = state.terminated === undefined ? undefined : obj(state.terminated);
      const waiting = state.waiting === undefined ? undefined : obj(state.waiting);
      if (waiting !== undefined && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (terminated !== undefined && str(terminated.reason) !== '')
        reason = str(terminated.reason);
      else if (terminated !== undefined) {
        reason =
          int(terminated.signal) !== 0
            ? `Signal:${int(terminated.signal)}`
            : `ExitCode:${int(terminated.exitCode)}`;
      } else if (container.ready === true && state.running !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // Back to Running while a container still runs.
    if (reason === 'Completed' && hasRunning) {
      reason = hasCondition(conditions, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  const deleting = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && podPhase !== 'Failed' && podPhase !== 'Succeeded') reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate !== null) {
    restartsStr = `${restarts} (${humanDuration(now - lastRestartDate)} ago)`;
  }

  row.cells.push(
    str(meta.name),
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsStr,
    translateTimestampSince(meta.creationTimestamp, now),
  );
  // options.Wide (the server always prints wide).
  const podIPs = arr(status.podIPs);
  const podIP = (podIPs.length > 0 ? str(podIPs[0].ip) : '') || '<none>';
  const nodeName = str(spec.nodeName) || '<none>';
  const nominatedNodeName = str(status.nominatedNodeName) || '<none>';
  let readinessGates = '<none>';
  const gates = arr(spec.readinessGates);
  if (gates.length > 0) {
    let trueConditions = 0;
    for (const gate of gates) {
      const c = conditions.find((x) => x.type === gate.conditionType);
      if (c !== undefined && c.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }
  row.cells.push(podIP, nodeName, nominatedNodeName, readinessGates);
  return [row];
}

/** printNamespace. */
export function printNamespace(ns: Json, now: number): TableRow[] {
  const meta = obj(ns.metadata);
  return [
    {
      cells: [
        str(meta.name),
        str(obj(ns.status).phase),
        translateTimestampSince(meta.creationTimestamp, now),
      ],
      object: ns,
    },
  ];
}

/** printConfigMap: DATA counts data and binaryData keys. */
export function printConfigMap(cm: Json, now: number): TableRow[] {
  const meta = obj(cm.metadata);
  return [
    {
      cells: [
        str(meta.name),
        Object.keys(obj(cm.data)).length + Object.keys(obj(cm.binaryData)).length,
        translateTimestampSince(meta.creationTimestamp, now),
      ],
      object: cm,
    },
  ];
}
