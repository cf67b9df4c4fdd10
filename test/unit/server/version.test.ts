// Tests for src/server/version.ts: /version as kube-apiserver writes version.Info (routes/version.go).
import * as assert from 'assert';
import { goPlatform, serveVersion, versionInfo } from '../../../src/server/version';

describe('server/version', () => {
  it('answers version.Info for each profile, fields in types.go order, indented as WriteRawJSON', () => {
    const r = serveVersion(versionInfo('1.36', 'linux/amd64'));
    assert.strictEqual(r.status, 200);
    assert.deepStrictEqual(r.headers, { 'Content-Type': 'application/json' });
    assert.strictEqual(
      r.body,
      [
        '{',
        '  "major": "1",',
        '  "minor": "36",',
        '  "emulationMajor": "1",',
        '  "emulationMinor": "36",',
        '  "minCompatibilityMajor": "1",',
        '  "minCompatibilityMinor": "35",',
        '  "gitVersion": "v1.36.0",',
        '  "gitCommit": "8f96c522449373766a41e2bf22e5504f8cf6d797",',
        '  "gitTreeState": "clean",',
        '  "buildDate": "2026-07-18T04:24:44Z",',
        '  "goVersion": "go1.26.0",',
        '  "compiler": "gc",',
        '  "platform": "linux/amd64"',
        '}',
      ].join('\n'),
    );
  });

  it('reports the 1.37 preview as a master build after the v1.37.0-alpha.0 tag', () => {
    const v = versionInfo('1.37', 'darwin/arm64');
    assert.strictEqual(v.minor, '37');
    assert.strictEqual(v.minCompatibilityMinor, '36');
    assert.match(v.gitVersion, /^v1\.37\.0-alpha\.0\+[0-9a-f]{12}$/);
    assert.ok(v.gitCommit.startsWith(v.gitVersion.split('+')[1]), 'gitVersion names gitCommit');
  });

  const platforms: [string, string, string][] = [
    ['linux', 'x64', 'linux/amd64'],
    ['darwin', 'arm64', 'darwin/arm64'],
    ['win32', 'x64', 'windows/amd64'],
    ['linux', 'ia32', 'linux/386'],
  ];
  for (const [platform, arch, want] of platforms) {
    it(`names ${platform}/${arch} as Go does: ${want}`, () => {
      assert.strictEqual(goPlatform(platform, arch), want);
    });
  }
});
