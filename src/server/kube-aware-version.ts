// Mirrors k8s.io/apimachinery pkg/version/helpers.go (release-1.36): the order discovery lists
// a group's versions in (GA before beta before alpha, then higher numbers first).

const enum VersionType {
  Alpha,
  Beta,
  GA,
}

const kubeVersionRegex = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function parseKubeVersion(
  v: string,
): { major: number; type: VersionType; minor: number } | undefined {
  const m = kubeVersionRegex.exec(v);
  if (!m) return undefined;
  const type =
    m[2] === 'alpha' ? VersionType.Alpha : m[2] === 'beta' ? VersionType.Beta : VersionType.GA;
  return { major: Number(m[1]), type, minor: type === VersionType.GA ? 0 : Number(m[3]) };
}

/**
 * CompareKubeAwareVersionStrings: positive when v1 has the higher priority (v1 > v1beta2 >
 * v1beta1 > v1alpha1), negative when v2 has; versions that are not kube-like sort after those
 * that are, in reverse lexical order among themselves (as upstream compares them).
 */
export function compareKubeAwareVersionStrings(v1: string, v2: string): number {
  if (v1 === v2) return 0;
  const a = parseKubeVersion(v1);
  const b = parseKubeVersion(v2);
  if (!a && !b) return v2 < v1 ? -1 : 1;
  if (!a) return -1;
  if (!b) return 1;
  if (a.type !== b.type) return a.type - b.type;
  if (a.major !== b.major) return a.major - b.major;
  return a.minor - b.minor;
}
