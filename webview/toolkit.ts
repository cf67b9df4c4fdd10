// The only module that imports @vscode/webview-ui-toolkit (ARCHITECTURE.md boundary 7): it
// registers the few components the inspector uses and hands out small typed wrappers, so that
// replacing the (deprecated upstream) toolkit touches this file alone. No upstream counterpart.
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDropdown,
  vsCodeOption,
  vsCodePanels,
  vsCodePanelTab,
  vsCodePanelView,
  vsCodeProgressRing,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';
import { custom, type Child } from './dom';

let registered = false;

/** Registers the components once (custom elements cannot be defined twice). */
export function registerToolkit(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(
    vsCodeButton(),
    vsCodeDropdown(),
    vsCodeOption(),
    vsCodePanels(),
    vsCodePanelTab(),
    vsCodePanelView(),
    vsCodeProgressRing(),
    vsCodeTextField(),
  );
}

export interface ButtonOptions {
  /** Accessible name (required for icon buttons). */
  label: string;
  appearance?: 'primary' | 'secondary' | 'icon';
  title?: string;
  onClick: () => void;
}

/** A toolkit button; `content` is text or our own SVG icon. */
export function button(options: ButtonOptions, ...content: Child[]): HTMLElement {
  const el = custom(
    'vscode-button',
    {
      attrs: {
        appearance: options.appearance ?? 'secondary',
        'aria-label': options.label,
        title: options.title ?? options.label,
      },
    },
    ...content,
  );
  el.addEventListener('click', () => options.onClick());
  return el;
}

export function setButtonDisabled(el: HTMLElement, disabled: boolean): void {
  (el as HTMLElement & { disabled: boolean }).disabled = disabled;
}

export interface TextFieldHandle {
  element: HTMLElement;
  value(): string;
  setValue(value: string): void;
}

/** A toolkit text field reporting every edit. */
export function textField(options: {
  label: string;
  placeholder: string;
  value?: string;
  onInput: (value: string) => void;
}): TextFieldHandle {
  const el = custom('vscode-text-field', {
    attrs: {
      placeholder: options.placeholder,
      'aria-label': options.label,
      value: options.value ?? '',
    },
  });
  const field = el as HTMLElement & { value: string };
  el.addEventListener('input', () => options.onInput(field.value ?? ''));
  return {
    element: el,
    value: () => field.value ?? '',
    setValue: (v) => {
      field.value = v;
    },
  };
}

export interface DropdownHandle {
  element: HTMLElement;
  value(): string;
  setValue(value: string): void;
  /** Replaces the options (e.g. the speeds that fit another run). */
  setChoices(choices: Array<{ value: string; label: string }>): void;
}

/** A toolkit dropdown of (value, label) options. */
export function dropdown(options: {
  label: string;
  choices: Array<{ value: string; label: string }>;
  value?: string;
  onChange: (value: string) => void;
}): DropdownHandle {
  const el = custom(
    'vscode-dropdown',
    { attrs: { 'aria-label': options.label, title: options.label } },
    ...options.choices.map((c) =>
      custom(
        'vscode-option',
        { attrs: { value: c.value, selected: c.value === options.value } },
        c.label,
      ),
    ),
  );
  const select = el as HTMLElement & { value: string };
  el.addEventListener('change', () => options.onChange(select.value ?? ''));
  return {
    element: el,
    value: () => select.value ?? '',
    setValue: (v) => {
      select.value = v;
    },
    setChoices: (choices) => {
      el.replaceChildren(
        ...choices.map((c) => custom('vscode-option', { attrs: { value: c.value } }, c.label)),
      );
    },
  };
}

export interface TabsHandle {
  element: HTMLElement;
  /** The panel element of a tab, to fill. */
  panel(id: string): HTMLElement;
  show(id: string): void;
  active(): string;
}

/** Toolkit panels (tabs): arrow keys move between tabs, the active one's panel is shown. */
export function tabs(options: {
  label: string;
  tabs: Array<{ id: string; title: string }>;
  active: string;
  onChange: (id: string) => void;
}): TabsHandle {
  const panels = new Map<string, HTMLElement>();
  const el = custom('vscode-panels', {
    attrs: { 'aria-label': options.label, activeid: `tab-${options.active}` },
  });
  for (const t of options.tabs)
    el.appendChild(custom('vscode-panel-tab', { attrs: { id: `tab-${t.id}` } }, t.title));
  for (const t of options.tabs) {
    const panel = custom('vscode-panel-view', {
      class: 'panel-view',
      attrs: { id: `view-${t.id}` },
    });
    panels.set(t.id, panel);
    el.appendChild(panel);
  }
  const tabsEl = el as HTMLElement & { activeid: string };
  let current = options.active;
  el.addEventListener('change', (event) => {
    if (event.target !== el) return; // change events of inner controls bubble through the panels
    const id = (tabsEl.activeid ?? '').replace(/^tab-/, '');
    if (id && id !== current) {
      current = id;
      options.onChange(id);
    }
  });
  return {
    element: el,
    panel: (id) => {
      const p = panels.get(id);
      if (!p) throw new Error(`no tab ${id}`);
      return p;
    },
    show: (id) => {
      current = id;
      tabsEl.activeid = `tab-${id}`;
    },
    active: () => current,
  };
}

/** An indeterminate progress ring. */
export function progressRing(label: string): HTMLElement {
  return custom('vscode-progress-ring', { attrs: { 'aria-label': label } });
}
