// Asking which scenario to run and with which parameters, through quick picks and input boxes:
// one step per parameter, each checked by the runner's own rules (resolveParams) as it is typed,
// so the message names the parameter and what it expects. No upstream counterpart.
import * as vscode from 'vscode';
import { estimateSummary } from '../../scenarios/run-estimate';
import {
  checkSeed,
  defaultSeed,
  estimateRun,
  resolveParams,
  type ScenarioDefinition,
  type ScenarioParamSpec,
} from '../../scenarios/runner';

export interface ScenarioChoice {
  name: string;
  set: Record<string, string | number | boolean>;
  seed?: number;
}

function defaultsText(definition: ScenarioDefinition): string {
  return definition.params.map((p) => `${p.name}=${String(p.default)}`).join(' ');
}

export async function pickScenario(
  scenarios: ScenarioDefinition[],
): Promise<ScenarioDefinition | undefined> {
  const picked = await vscode.window.showQuickPick(
    // The side bar's short label, its title beside it, as the Scenarios view shows them.
    scenarios.map((s) => ({
      label: s.label,
      description: `${s.title} (${s.name})`,
      detail: s.description,
      scenario: s,
    })),
    {
      title: 'List/Watch: Run Scenario',
      placeHolder: 'Choose a built-in scenario (it runs in virtual time)',
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.scenario;
}

/** "Run with defaults" or "Set parameters…"; undefined when dismissed. */
export async function pickHow(
  definition: ScenarioDefinition,
): Promise<'defaults' | 'parameters' | undefined> {
  if (definition.params.length === 0) return 'defaults';
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: '$(play) Run with defaults',
        description: estimateSummary(estimateRun(definition.name, {})),
        detail: defaultsText(definition),
        how: 'defaults' as const,
      },
      {
        label: '$(settings) Set parameters…',
        detail: `${definition.params.length} parameters, then the seed`,
        how: 'parameters' as const,
      },
    ],
    {
      title: `List/Watch: ${definition.title}`,
      placeHolder: 'Run it with its default parameters, or set them one by one',
      ignoreFocusOut: true,
    },
  );
  return picked?.how;
}

/** Why `text` is not a valid value of `param` (the runner's own message), or undefined. */
export function parameterProblem(
  definition: ScenarioDefinition,
  param: ScenarioParamSpec,
  text: string,
): string | undefined {
  try {
    resolveParams(definition.name, { [param.name]: text });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function rangeText(p: ScenarioParamSpec): string {
  const parts: string[] = [];
  if (p.integer) parts.push('whole number');
  if (p.min !== undefined && p.max !== undefined) parts.push(`${p.min} to ${p.max}`);
  else if (p.min !== undefined) parts.push(`at least ${p.min}`);
  else if (p.max !== undefined) parts.push(`at most ${p.max}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

async function askParameter(
  definition: ScenarioDefinition,
  p: ScenarioParamSpec,
  step: number,
  totalSteps: number,
): Promise<string | undefined> {
  const title = `${definition.title}: ${p.name} (${step}/${totalSteps})`;
  if (p.type === 'boolean' || p.choices) {
    const values = p.type === 'boolean' ? ['true', 'false'] : (p.choices ?? []);
    const ordered = [String(p.default), ...values.filter((v) => v !== String(p.default))];
    const picked = await vscode.window.showQuickPick(
      ordered.map((v) => ({
        label: v,
        description: v === String(p.default) ? 'default' : undefined,
      })),
      {
        title,
        placeHolder: p.description,
        ignoreFocusOut: true,
      },
    );
    return picked?.label;
  }
  return vscode.window.showInputBox({
    title,
    prompt: `${p.description}${rangeText(p)}`,
    value: String(p.default),
    ignoreFocusOut: true,
    validateInput: (text) => parameterProblem(definition, p, text.trim()),
  });
}

/** Every parameter, then the seed. Undefined when any step is dismissed. */
export async function askParameters(
  definition: ScenarioDefinition,
): Promise<{ set: Record<string, string>; seed: number } | undefined> {
  const set: Record<string, string> = {};
  const total = definition.params.length + 1;
  for (const [i, p] of definition.params.entries()) {
    const value = await askParameter(definition, p, i + 1, total);
    if (value === undefined) return undefined;
    set[p.name] = value.trim();
  }
  // The parameters together may still break a rule that spans several (checked by the scenario).
  try {
    resolveParams(definition.name, set);
  } catch (error) {
    void vscode.window.showErrorMessage(
      `List/Watch: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
  const seedText = await vscode.window.showInputBox({
    title: `${definition.title}: seed (${total}/${total})`,
    prompt: "The seed of the run's random choices: the same seed gives the same run",
    value: String(defaultSeed),
    ignoreFocusOut: true,
    validateInput: (text) => {
      try {
        checkSeed(Number(text.trim() === '' ? NaN : text.trim()));
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  if (seedText === undefined) return undefined;
  return { set, seed: Number(seedText.trim()) };
}

/** The whole dialogue: scenario, how, parameters. Undefined when dismissed at any step. */
export async function askScenarioChoice(
  scenarios: ScenarioDefinition[],
  preselected?: ScenarioDefinition,
  how?: 'defaults' | 'parameters',
): Promise<ScenarioChoice | undefined> {
  const definition = preselected ?? (await pickScenario(scenarios));
  if (!definition) return undefined;
  const mode = how ?? (await pickHow(definition));
  if (!mode) return undefined;
  if (mode === 'defaults') return { name: definition.name, set: {} };
  const asked = await askParameters(definition);
  return asked && { name: definition.name, set: asked.set, seed: asked.seed };
}
