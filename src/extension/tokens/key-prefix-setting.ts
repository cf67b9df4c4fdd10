// The `listwatch.keyPrefix` setting: the etcd key prefix a continue token is decoded against when
// nothing in its text names the LIST (upstream passes the resource's keyPrefix to DecodeContinue),
// and `listwatch.etcdPrefix` (kube-apiserver's --etcd-prefix) for prefixes read from a request.
// Both are resource-scoped: each document reads them for its own folder.
import * as vscode from 'vscode';
import type { TokenContextOptions } from '../../scan/continue-token-context';
import { defaultEtcdPrefix } from '../../request/storage-key-prefix';
import { etcdPrefixSettingId, keyPrefixSettingId } from '../ids';

// The pods resource's prefix under the default etcd prefix "/registry": the most common list.
export const defaultKeyPrefix = '/registry/pods/';

export interface KeyPrefixSetting {
  /** The prefix to use: the configured one when valid, else the default. */
  keyPrefix: string;
  /** What the user configured, as read. */
  configured: unknown;
  /** Why the configured value was not used; absent when it is valid. */
  problem?: string;
}

/** Why a key prefix typed by the user (setting or input box) is unusable; undefined when fine. */
export function keyPrefixProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `a key prefix must be a string, got ${JSON.stringify(value)}`;
  if (!value.startsWith('/')) {
    return `"${value}" is not an etcd key path: a key prefix must start with '/' (e.g. ${defaultKeyPrefix})`;
  }
  return undefined;
}

export function readKeyPrefix(scope?: vscode.ConfigurationScope): KeyPrefixSetting {
  const configured = vscode.workspace
    .getConfiguration(undefined, scope)
    .get<unknown>(keyPrefixSettingId, defaultKeyPrefix);
  const problem = keyPrefixProblem(configured);
  if (problem === undefined) return { keyPrefix: configured as string, configured };
  return {
    keyPrefix: defaultKeyPrefix,
    configured,
    problem: `Setting ${keyPrefixSettingId}: ${problem}. Using the default ${defaultKeyPrefix} instead.`,
  };
}

/** The etcd prefix for `scope`'s folder; a value that is not a key path falls back to /registry. */
export function readEtcdPrefix(scope?: vscode.ConfigurationScope): string {
  const configured = vscode.workspace
    .getConfiguration(undefined, scope)
    .get<unknown>(etcdPrefixSettingId, defaultEtcdPrefix);
  return keyPrefixProblem(configured) === undefined ? (configured as string) : defaultEtcdPrefix;
}

/** What the scanner needs to give a token in a document of `scope` its key prefix. */
export function tokenContextOptions(scope?: vscode.ConfigurationScope): TokenContextOptions {
  return {
    fallbackPrefix: readKeyPrefix(scope).keyPrefix,
    fallbackName: `the ${keyPrefixSettingId} setting`,
    etcdPrefix: readEtcdPrefix(scope),
  };
}

/**
 * Tells the user once per wrong value (at activation and whenever the setting changes), with a
 * button to open the setting; the rest of the extension silently uses the default meanwhile.
 */
export function watchKeyPrefixSetting(): vscode.Disposable {
  let warnedAbout: string | undefined;
  const check = () => {
    const setting = readKeyPrefix();
    if (!setting.problem) {
      warnedAbout = undefined;
      return;
    }
    const key = JSON.stringify(setting.configured);
    if (key === warnedAbout) return;
    warnedAbout = key;
    void vscode.window.showWarningMessage(setting.problem, 'Open Setting').then((choice) => {
      if (choice)
        void vscode.commands.executeCommand('workbench.action.openSettings', keyPrefixSettingId);
    });
  };
  check();
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(keyPrefixSettingId)) check();
  });
}
