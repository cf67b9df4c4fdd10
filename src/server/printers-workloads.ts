// Mirrors kubernetes/kubernetes pkg/printers/internalversion/printers.go (release-1.36) for the
// workloads: the column definitions AddHandlers gives deployments, replicasets, statefulsets,
// daemonsets, controllerrevisions, replicationcontrollers, jobs and cronjobs, their print
// functions with options.Wide (the server prints every column), layoutContainerCells,
// hasJobCondition, printBoolPtr and formatResourceName. Deliberate difference: objects are JSON
// as stored, so every field is read defensively (a missing int32 is Go's zero).
import { humanDuration } from './duration';
import { formatLabelSelector, formatLabels, labelSelectorString } from './label-selector-string';
import { swaggerDoc as doc } from './printer-column-descriptions';
import {
  ageColumn,
  arr,
  column,
  int,
  nameColumnDefinition,
  obj,
  parseTime,
  str,
  translateTimestampSince,
  type Json,
  type TableColumnDefinition,
  type TableRow,
} from './printers';

const containersColumn = column(
  'Containers',
  'string',
  'Names of each container in the template.',
  {
    priority: 1,
  },
);
const imagesColumn = column(
  'Images',
  'string',
  'Images referenced by each container in the template.',
  { priority: 1 },
);
const readyPodsDescription = 'Number of the pod with ready state';

/** deploymentColumnDefinitions. */
export const deploymentColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Ready', 'string', readyPodsDescription),
  column('Up-to-date', 'string', doc.deploymentStatusUpdatedReplicas),
  column('Available', 'string', doc.deploymentStatusAvailableReplicas),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.deploymentSpecSelector, { priority: 1 }),
];

/** replicaSetColumnDefinitions. */
export const replicaSetColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Desired', 'integer', doc.replicaSetSpecReplicas),
  column('Current', 'integer', doc.replicaSetStatusReplicas),
  column('Ready', 'integer', doc.replicaSetStatusReadyReplicas),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.replicaSetSpecSelector, { priority: 1 }),
];

/** replicationControllerColumnDefinitions. */
export const replicationControllerColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Desired', 'integer', doc.rcSpecReplicas),
  column('Current', 'integer', doc.rcStatusReplicas),
  column('Ready', 'integer', doc.rcStatusReadyReplicas),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.rcSpecSelector, { priority: 1 }),
];

/** statefulSetColumnDefinitions. */
export const statefulSetColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Ready', 'string', readyPodsDescription),
  ageColumn,
  containersColumn,
  imagesColumn,
];

/** daemonSetColumnDefinitions. */
export const daemonSetColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Desired', 'integer', doc.daemonSetStatusDesired),
  column('Current', 'integer', doc.daemonSetStatusCurrent),
  column('Ready', 'integer', doc.daemonSetStatusReady),
  column('Up-to-date', 'integer', doc.daemonSetStatusUpdated),
  column('Available', 'integer', doc.daemonSetStatusAvailable),
  column('Node Selector', 'string', doc.podSpecNodeSelector),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.daemonSetSpecSelector, { priority: 1 }),
];

/** controllerRevisionColumnDefinition. */
export const controllerRevisionColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Controller', 'string', 'Controller of the object'),
  column('Revision', 'string', doc.controllerRevisionRevision),
  ageColumn,
];

/** jobColumnDefinitions. */
export const jobColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Status', 'string', 'Status of the job.'),
  column('Completions', 'string', doc.jobStatusSucceeded),
  column('Duration', 'string', 'Time required to complete the job.'),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.jobSpecSelector, { priority: 1 }),
];

/** cronJobColumnDefinitions. */
export const cronJobColumnDefinitions: readonly TableColumnDefinition[] = [
  nameColumnDefinition,
  column('Schedule', 'string', doc.cronJobSpecSchedule),
  column('Timezone', 'string', doc.cronJobSpecTimeZone),
  column('Suspend', 'boolean', doc.cronJobSpecSuspend),
  column('Active', 'integer', doc.cronJobStatusActive),
  column('Last Schedule', 'string', doc.cronJobStatusLastScheduleTime),
  ageColumn,
  containersColumn,
  imagesColumn,
  column('Selector', 'string', doc.jobSpecSelector, { priority: 1 }),
];

/** layoutContainerCells: the template's container names and images, comma separated. */
export function layoutContainerCells(podTemplate: unknown): [string, string] {
  const containers = arr(obj(obj(podTemplate).spec).containers);
  return [
    containers.map((c) => str(c.name)).join(','),
    containers.map((c) => str(c.image)).join(','),
  ];
}

/** printBoolPtr: `True`, `False`, or `<unset>` for nil. */
export function printBoolPtr(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}

function row(object: Json, cells: unknown[]): TableRow[] {
  return [{ cells, object }];
}

/** printDeployment. */
export function printDeployment(d: Json, now: number): TableRow[] {
  const meta = obj(d.metadata);
  const spec = obj(d.spec);
  const status = obj(d.status);
  const selector = labelSelectorString(spec.selector);
  const [names, images] = layoutContainerCells(spec.template);
  return row(d, [
    str(meta.name),
    `${int(status.readyReplicas)}/${int(spec.replicas)}`,
    int(status.updatedReplicas),
    int(status.availableReplicas),
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    selector ?? '<invalid>',
  ]);
}

/** printReplicaSet. */
export function printReplicaSet(rs: Json, now: number): TableRow[] {
  const meta = obj(rs.metadata);
  const spec = obj(rs.spec);
  const status = obj(rs.status);
  const [names, images] = layoutContainerCells(spec.template);
  return row(rs, [
    str(meta.name),
    int(spec.replicas),
    int(status.replicas),
    int(status.readyReplicas),
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(spec.selector),
  ]);
}

/** printReplicationController (its selector is a plain label map). */
export function printReplicationController(rc: Json, now: number): TableRow[] {
  const meta = obj(rc.metadata);
  const spec = obj(rc.spec);
  const status = obj(rc.status);
  const [names, images] = layoutContainerCells(spec.template);
  return row(rc, [
    str(meta.name),
    int(spec.replicas),
    int(status.replicas),
    int(status.readyReplicas),
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    formatLabels(spec.selector),
  ]);
}

/** printStatefulSet. */
export function printStatefulSet(ss: Json, now: number): TableRow[] {
  const meta = obj(ss.metadata);
  const spec = obj(ss.spec);
  const [names, images] = layoutContainerCells(spec.template);
  return row(ss, [
    str(meta.name),
    `${int(obj(ss.status).readyReplicas)}/${int(spec.replicas)}`,
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
  ]);
}

/** printDaemonSet. */
export function printDaemonSet(ds: Json, now: number): TableRow[] {
  const meta = obj(ds.metadata);
  const spec = obj(ds.spec);
  const status = obj(ds.status);
  const [names, images] = layoutContainerCells(spec.template);
  return row(ds, [
    str(meta.name),
    int(status.desiredNumberScheduled),
    int(status.currentNumberScheduled),
    int(status.numberReady),
    int(status.updatedNumberScheduled),
    int(status.numberAvailable),
    formatLabels(obj(obj(spec.template).spec).nodeSelector),
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(spec.selector),
  ]);
}

/** formatResourceName with withKind: `kind.group/name` in lower case (no kind: the name). */
function formatResourceName(apiVersion: string, kind: string, name: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  if (group === '' && kind === '') return name;
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${name}`;
}

/** printControllerRevision: CONTROLLER from metav1.GetControllerOf. */
export function printControllerRevision(cr: Json, now: number): TableRow[] {
  const meta = obj(cr.metadata);
  const controllerRef = arr(meta.ownerReferences).find((r) => r.controller === true);
  const controllerName =
    controllerRef === undefined
      ? '<none>'
      : formatResourceName(
          str(controllerRef.apiVersion),
          str(controllerRef.kind),
          str(controllerRef.name),
        );
  return row(cr, [
    str(meta.name),
    controllerName,
    int(cr.revision),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}

/** hasJobCondition: the first condition of the type decides. */
function hasJobCondition(conditions: Json[], type: string): boolean {
  const c = conditions.find((x) => x.type === type);
  return c !== undefined && c.status === 'True';
}

/** printJob: STATUS from the conditions, COMPLETIONS, DURATION from start to completion (or now). */
export function printJob(job: Json, now: number): TableRow[] {
  const meta = obj(job.metadata);
  const spec = obj(job.spec);
  const status = obj(job.status);
  const succeeded = int(status.succeeded);
  let completions: string;
  if (typeof spec.completions === 'number') completions = `${succeeded}/${int(spec.completions)}`;
  else {
    const parallelism = int(spec.parallelism);
    completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  }
  const start = typeof status.startTime === 'string' ? parseTime(status.startTime) : undefined;
  const completion =
    typeof status.completionTime === 'string' ? parseTime(status.completionTime) : undefined;
  // A nil startTime (metav1.Time's zero marshals as null) leaves the cell empty.
  let jobDuration = '';
  if (typeof start === 'number') {
    jobDuration =
      typeof completion === 'number'
        ? humanDuration(completion - start)
        : humanDuration(now - start);
  }
  const conditions = arr(status.conditions);
  let state: string;
  if (hasJobCondition(conditions, 'Complete')) state = 'Complete';
  else if (hasJobCondition(conditions, 'Failed')) state = 'Failed';
  else if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null)
    state = 'Terminating';
  else if (hasJobCondition(conditions, 'Suspended')) state = 'Suspended';
  else if (hasJobCondition(conditions, 'FailureTarget')) state = 'FailureTarget';
  else state = 'Running';
  const [names, images] = layoutContainerCells(spec.template);
  return row(job, [
    str(meta.name),
    state,
    completions,
    jobDuration,
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(spec.selector),
  ]);
}

/** printCronJob. */
export function printCronJob(cj: Json, now: number): TableRow[] {
  const meta = obj(cj.metadata);
  const spec = obj(cj.spec);
  const status = obj(cj.status);
  const lastScheduleTime =
    status.lastScheduleTime === undefined || status.lastScheduleTime === null
      ? '<none>'
      : translateTimestampSince(status.lastScheduleTime, now);
  const timeZone = typeof spec.timeZone === 'string' ? spec.timeZone : '<none>';
  const jobSpec = obj(obj(spec.jobTemplate).spec);
  const [names, images] = layoutContainerCells(jobSpec.template);
  return row(cj, [
    str(meta.name),
    str(spec.schedule),
    timeZone,
    printBoolPtr(spec.suspend),
    arr(status.active).length,
    lastScheduleTime,
    translateTimestampSince(meta.creationTimestamp, now),
    names,
    images,
    formatLabelSelector(jobSpec.selector),
  ]);
}

/**
 * scaleColumnDefinitions: the table of an autoscaling/v1 Scale (a `/scale` GET), its Name column
 * without the `name` format.
 */
export const scaleColumnDefinitions: readonly TableColumnDefinition[] = [
  column('Name', 'string', nameColumnDefinition.description),
  column(
    'Desired',
    'integer',
    'replicas is the desired number of instances for the scaled object.',
  ),
  column(
    'Available',
    'integer',
    'replicas is the actual number of observed instances of the scaled object.',
  ),
  ageColumn,
];

/** printScale: the Scale's name, spec.replicas, status.replicas and age. */
export function printScale(scale: Json, now: number): TableRow[] {
  const meta = obj(scale.metadata);
  return row(scale, [
    str(meta.name),
    int(obj(scale.spec).replicas),
    int(obj(scale.status).replicas),
    translateTimestampSince(meta.creationTimestamp, now),
  ]);
}
