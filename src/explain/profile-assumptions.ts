// No upstream counterpart: what an explanation assumes about the code when it explains a release
// the engine does not run. The engine is release-1.36's code (master's for 1.37); the 1.33-1.35
// profiles are those releases' gate defaults (src/engine/features.ts) on it. Where a release's
// code differs in a way no gate captures, and the difference is known (read in k8s.io/apiserver
// release-1.33 3968f09f … release-1.36 8f96c522), it is said here.
import { featureNames, type FeatureName, type SemanticsProfile } from '../engine';

/** What the request is, as far as the known code differences care. */
export interface AssumedRequest {
  kind: 'list' | 'watch';
  /** get.go's isListWatchRequest: sendInitialEvents=true (as set or defaulted) with allowWatchBookmarks. */
  watchList: boolean;
}

/**
 * Code changes without a gate, per release, that bear on how a LIST or WATCH is served. Only
 * what was read in the diffs is listed; 1.34 and 1.35 differ from 1.36 only in refactoring
 * (get.go's listOpts, cacher/store) and the consistency checker's log detail.
 */
const knownCodeDifferences: Partial<
  Record<SemanticsProfile['release'], (r: AssumedRequest) => string[]>
> = {
  '1.33': (r) => [
    // cacher.go: reflector.UseWatchList = ptr.To(false), removed in 1.34.
    "1.33's watch cache filled itself from etcd with a LIST and a WATCH, never a WatchList stream (cacher.go set its reflector's UseWatchList to false; 1.34 removed that)",
    ...(r.kind === 'watch' && r.watchList
      ? [
          // get.go watchListEndpointRestrictions; response.go watchListTransformer, both gone in 1.34.
          "1.33 served a WatchList watch that allows bookmarks in no Table form (get.go's watchListEndpointRestrictions: 406) and put an empty list of the resource on its initial-events-end bookmark (metav1.InitialEventsListBlueprintAnnotationKey); both were removed in 1.34",
        ]
      : []),
  ],
};

/**
 * The assumptions to print: the code that runs, the gates set by hand (and which of them the
 * release does not have), and the known code differences. Empty for 1.36 and 1.37 without --gates.
 */
export function profileAssumptions(
  base: SemanticsProfile,
  overrides: Partial<Record<FeatureName, boolean>>,
  request: AssumedRequest,
): string[] {
  const out: string[] = [];
  const release = `release-${base.release}`;
  const code =
    base.kubernetesVersion === '1.37'
      ? 'master (1.37 preview)'
      : `release-${base.kubernetesVersion}`;
  if (base.release !== base.kubernetesVersion)
    out.push(
      `the engine runs ${code}'s code with ${release}'s feature-gate defaults: what differs from 1.36 here comes from the gates alone; a code change without a gate is not run`,
    );
  for (const name of featureNames) {
    const value = overrides[name];
    if (value === undefined) continue;
    const s = base.specs[name];
    if (s.stage === 'Absent')
      out.push(
        `--gates ${name}=${value}: ${release} has no such gate (its kube-apiserver answers "unrecognized feature gate: ${name}"); explained as a what-if on ${code}'s code`,
      );
  }
  const known = knownCodeDifferences[base.release]?.(request) ?? [];
  if (base.release !== base.kubernetesVersion && known.length === 0)
    out.push(
      `no code change without a gate is known between ${release} and ${code} that changes how a LIST or WATCH is served`,
    );
  out.push(...known);
  return out;
}
