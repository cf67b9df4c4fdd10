// No upstream counterpart: the local API server's settings (listwatch.server.port, .profile,
// .etcd, .etcdVersion, .faults, .autoStart), read and checked in one place. The manifest's schema marks a
// wrong value in the settings editor; a value that gets past it (settings.json edited by hand) is
// replaced by the default here, with a message naming the setting, what was expected and what is
// used instead.
import * as vscode from 'vscode';
import { parseSemantic } from '../../engine/http-face';
import { parseEtcdChoice, type EtcdChoice } from '../../server/etcd-choice';
import type { ProfileName } from '../../server/served-resources';
import {
  portSettingId,
  profileSettingId,
  autoStartSettingId,
  etcdSettingId,
  etcdVersionSettingId,
  faultsSettingId,
} from '../ids';

export const serverProfiles: readonly ProfileName[] = ['1.36', '1.37'];

export interface ServerSettings {
  port: number;
  profile: ProfileName;
  autoStart: boolean;
  /** The etcd the server runs on (`memory`, `spawn` or client URLs; the in-memory one's version). */
  etcd: EtcdChoice;
  /** A fault schedule file the server starts with (`listwatch serve --faults`); undefined: none. */
  faults?: string;
  /** One message per wrong value, naming the setting. */
  problems: string[];
}

/** Checks raw setting values (undefined: not set); pure, for the tests' tables. */
export function checkServerSettings(raw: {
  port: unknown;
  profile: unknown;
  autoStart: unknown;
  etcd?: unknown;
  etcdVersion?: unknown;
  faults?: unknown;
}): ServerSettings {
  const problems: string[] = [];
  const got = (v: unknown): string => JSON.stringify(v);
  let port = 0;
  if (raw.port !== undefined) {
    if (
      typeof raw.port === 'number' &&
      Number.isInteger(raw.port) &&
      raw.port >= 0 &&
      raw.port <= 65535
    )
      port = raw.port;
    else
      problems.push(
        `${portSettingId}: expected a port number 0..65535 (0: a free port), got ${got(raw.port)}; using 0`,
      );
  }
  let profile: ProfileName = '1.36';
  if (raw.profile !== undefined) {
    if (serverProfiles.includes(raw.profile as ProfileName)) profile = raw.profile as ProfileName;
    else
      problems.push(
        `${profileSettingId}: expected ${serverProfiles.map(got).join(' or ')}, got ${got(raw.profile)}; using "1.36"`,
      );
  }
  let autoStart = false;
  if (raw.autoStart !== undefined) {
    if (typeof raw.autoStart === 'boolean') autoStart = raw.autoStart;
    else
      problems.push(
        `${autoStartSettingId}: expected true or false, got ${got(raw.autoStart)}; using false`,
      );
  }
  let etcd: EtcdChoice = { kind: 'memory' };
  if (raw.etcd !== undefined) {
    try {
      if (typeof raw.etcd !== 'string') throw new Error('expected a string');
      etcd = parseEtcdChoice(raw.etcd);
    } catch (e) {
      problems.push(
        `${etcdSettingId}: ${(e as Error).message.replace(/^--etcd: /, '')}, got ${got(raw.etcd)}; using "memory"`,
      );
    }
  }
  if (raw.etcdVersion !== undefined && raw.etcdVersion !== '') {
    const version = typeof raw.etcdVersion === 'string' ? raw.etcdVersion.trim() : '';
    if (!parseSemantic(version))
      problems.push(
        `${etcdVersionSettingId}: expected an etcd version such as 3.4.23 or 3.6.6 (major.minor.patch), got ${got(raw.etcdVersion)}; reporting no version`,
      );
    else if (etcd.kind === 'memory') etcd = { kind: 'memory', version };
    else
      problems.push(
        `${etcdVersionSettingId}: is for the in-memory etcd, and ${etcdSettingId} is ${got(raw.etcd)}, whose members report their own versions; ignored`,
      );
  }
  let faults: string | undefined;
  if (raw.faults !== undefined && raw.faults !== '') {
    if (typeof raw.faults === 'string') faults = raw.faults;
    else
      problems.push(
        `${faultsSettingId}: expected the path of a fault schedule (YAML or JSON), got ${got(raw.faults)}; starting with no faults`,
      );
  }
  return { port, profile, autoStart, etcd, ...(faults === undefined ? {} : { faults }), problems };
}

/** The settings as they are now. */
export function readServerSettings(): ServerSettings {
  const c = vscode.workspace.getConfiguration();
  return checkServerSettings({
    port: c.get(portSettingId),
    profile: c.get(profileSettingId),
    autoStart: c.get(autoStartSettingId),
    etcd: c.get(etcdSettingId),
    etcdVersion: c.get(etcdVersionSettingId),
    faults: c.get(faultsSettingId),
  });
}

/** Shows and logs each problem of the settings as a warning (once per read). */
export function warnAboutServerSettings(
  settings: ServerSettings,
  log: { warn(message: string): void },
): void {
  for (const problem of settings.problems) {
    log.warn(problem);
    void vscode.window.showWarningMessage(problem);
  }
}
