// Mirrors k8s.io/apiserver pkg/server/routes/version.go and apimachinery pkg/version/types.go
// (release-1.36): GET /version answers version.Info as WriteRawJSON writes it (indented JSON).
// Deliberate difference: the build fields name the upstream commit whose semantics the profile
// models (there is no kube-apiserver binary), and platform is the host this server runs on.
import type { KubernetesVersion } from '../engine';
import type { ServedResponse } from './served-response';

/** version.Info, in its JSON field order. */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

interface Build {
  gitVersion: string;
  gitCommit: string;
  buildDate: string;
  goVersion: string;
}

// The k8s.io/apiserver commits of the two profiles (release-1.36 and master), with their commit
// dates. A master build's gitVersion is what `git describe` makes of it after the v1.37.0-alpha.0 tag.
const builds: Record<KubernetesVersion, Build> = {
  '1.36': {
    gitVersion: 'v1.36.0',
    gitCommit: '8f96c522449373766a41e2bf22e5504f8cf6d797',
    buildDate: '2026-07-18T04:24:44Z',
    goVersion: 'go1.26.0',
  },
  '1.37': {
    gitVersion: 'v1.37.0-alpha.0+24a394e516bf',
    gitCommit: '24a394e516bfda066d7e2221d7d92c052de27c54',
    buildDate: '2026-07-23T18:32:12Z',
    goVersion: 'go1.26.0',
  },
};

// Go's GOOS/GOARCH for Node's platform and arch names.
const goos: Record<string, string> = { win32: 'windows', sunos: 'solaris' };
const goarch: Record<string, string> = { x64: 'amd64', ia32: '386', x32: '386' };

/** runtime.GOOS + "/" + runtime.GOARCH for a Node process.platform and process.arch. */
export function goPlatform(platform: string, arch: string): string {
  return `${goos[platform] ?? platform}/${goarch[arch] ?? arch}`;
}

/**
 * The version.Info kube-apiserver reports: the binary version, the emulation version (the same,
 * no --emulated-version) and the minimum compatibility version (one minor below, its default).
 */
export function versionInfo(version: KubernetesVersion, platform: string): VersionInfo {
  const [major, minor] = version.split('.');
  const b = builds[version];
  return {
    major,
    minor,
    emulationMajor: major,
    emulationMinor: minor,
    minCompatibilityMajor: major,
    minCompatibilityMinor: String(Number(minor) - 1),
    gitVersion: b.gitVersion,
    gitCommit: b.gitCommit,
    gitTreeState: 'clean',
    buildDate: b.buildDate,
    goVersion: b.goVersion,
    compiler: 'gc',
    platform,
  };
}

/** GET /version: WriteRawJSON (json.MarshalIndent with two spaces, no trailing newline). */
export function serveVersion(info: VersionInfo): ServedResponse {
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(info, null, 2),
  };
}
