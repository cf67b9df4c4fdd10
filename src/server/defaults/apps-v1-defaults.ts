// Mirrors kubernetes pkg/apis/apps/v1/defaults.go (release-1.36): SetDefaults_Deployment,
// SetDefaults_ReplicaSet, SetDefaults_StatefulSet, SetDefaults_DaemonSet, and the generated
// defaulter's walk into each pod template (core-v1-defaults.ts). Deliberate difference: the
// StatefulSet's rollingUpdate.maxUnavailable (behind MaxUnavailableStatefulSet) is not defaulted.
import { ensureObject, objectOf, setDefaultsPodTemplate } from './core-v1-defaults';

type Loose = Record<string, unknown>;

const unset = (v: unknown): boolean => v === undefined || v === null || v === '';

/** SetDefaults_Deployment. */
export function setDefaultsDeployment(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  if (unset(spec.replicas)) spec.replicas = 1;
  const strategy = ensureObject(spec, 'strategy');
  if (unset(strategy.type)) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
    if (unset(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = '25%';
    if (unset(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = '25%';
  }
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (unset(spec.progressDeadlineSeconds)) spec.progressDeadlineSeconds = 600;
  setDefaultsPodTemplate(spec);
}

/** SetDefaults_ReplicaSet. */
export function setDefaultsReplicaSet(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  if (unset(spec.replicas)) spec.replicas = 1;
  setDefaultsPodTemplate(spec);
}

/** SetDefaults_StatefulSet. */
export function setDefaultsStatefulSet(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  if (unset(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  const updateStrategy = ensureObject(spec, 'updateStrategy');
  if (unset(updateStrategy.type)) {
    updateStrategy.type = 'RollingUpdate';
    ensureObject(updateStrategy, 'rollingUpdate');
  }
  const rollingUpdate = objectOf(updateStrategy.rollingUpdate);
  if (updateStrategy.type === 'RollingUpdate' && rollingUpdate && unset(rollingUpdate.partition))
    rollingUpdate.partition = 0;
  const retention = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  if (unset(retention.whenDeleted)) retention.whenDeleted = 'Retain';
  if (unset(retention.whenScaled)) retention.whenScaled = 'Retain';
  if (unset(spec.replicas)) spec.replicas = 1;
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  setDefaultsPodTemplate(spec);
}

/** SetDefaults_DaemonSet. */
export function setDefaultsDaemonSet(obj: Loose): void {
  const spec = ensureObject(obj, 'spec');
  const updateStrategy = ensureObject(spec, 'updateStrategy');
  if (unset(updateStrategy.type)) updateStrategy.type = 'RollingUpdate';
  if (updateStrategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(updateStrategy, 'rollingUpdate');
    if (unset(rollingUpdate.maxUnavailable)) rollingUpdate.maxUnavailable = 1;
    if (unset(rollingUpdate.maxSurge)) rollingUpdate.maxSurge = 0;
  }
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  setDefaultsPodTemplate(spec);
}
