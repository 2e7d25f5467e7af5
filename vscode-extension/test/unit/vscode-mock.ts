// A small stand-in for the `vscode` module, enough for the extension's logic (not its UI). Installed by
// register-mock.ts through Module._resolveFilename before the extension is loaded.
export const calls: { method: string; args: unknown[] }[] = [];
export const registeredCommands = new Map<string, (...a: any[]) => unknown>();
export const inputAnswers: (string | undefined)[] = [];
export const quickPickAnswers: unknown[] = [];
export const messages: { level: string; text: string; items: string[] }[] = [];
/** What the next showErrorMessage / showInformationMessage resolves to (a button's title), in order. */
export const messageAnswers: (string | undefined)[] = [];
export const installedExtensions = new Set<string>();
export const notifications: unknown[] = [];
export const config: Record<string, unknown> = {};
export const channels = new Map<string, { lines: string[] }>();
/** The tree views made, by id, with the emitter that tells them shown or hidden. */
export const treeViews = new Map<string, { view: { visible: boolean }; visibility: EventEmitter<{ visible: boolean }> }>();

export class EventEmitter<T> {
  private ls: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => { this.ls.push(l); return { dispose() {} }; };
  fire(e: T) { for (const l of this.ls) l(e); }
  clear() { this.ls = []; }
}
export class TreeItem { description?: string; tooltip?: string; iconPath?: unknown; command?: unknown; contextValue?: string;
  constructor(public label: string) {} }
export class ThemeIcon { constructor(public id: string) {} }
export class Position { constructor(public line: number, public character: number) {} }
export class Range { constructor(public start: Position, public end: Position) {} }
export const StatusBarAlignment = { Left: 1, Right: 2 };
export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };
export const Uri = { file: (p: string) => ({ fsPath: p, toString: () => 'file://' + p }), parse: (s: string) => ({ fsPath: s.replace('file://', ''), toString: () => s }) };

function channel(name: string) {
  const c = { lines: [] as string[] };
  channels.set(name, c);
  return { name, appendLine: (l: string) => c.lines.push(l), append: (l: string) => c.lines.push(l), clear: () => { c.lines.length = 0; },
    show: () => {}, dispose: () => {} };
}

export const window = {
  activeTextEditor: undefined as unknown,
  createOutputChannel: (name: string) => channel(name),
  createStatusBarItem: () => ({ text: '', tooltip: '', command: '', visible: false, show() { this.visible = true; },
    hide() { this.visible = false; }, dispose() {} }),
  registerTreeDataProvider: (id: string, p: unknown) => { calls.push({ method: 'registerTreeDataProvider', args: [id, p] }); return { dispose() {} }; },
  createTreeView: (id: string, o: { treeDataProvider: unknown }) => {
    calls.push({ method: 'createTreeView', args: [id, o.treeDataProvider] });
    const visibility = new EventEmitter<{ visible: boolean }>();
    const view = { visible: false, onDidChangeVisibility: visibility.event, dispose() {} };
    treeViews.set(id, { view, visibility });
    return view;
  },
  registerWebviewViewProvider: (id: string, p: unknown) => { calls.push({ method: 'registerWebviewViewProvider', args: [id, p] }); return { dispose() {} }; },
  showInputBox: async (o: { validateInput?: (v: string) => string | undefined }) => { const a = inputAnswers.shift(); calls.push({ method: 'showInputBox', args: [o, a] }); return a; },
  showQuickPick: async () => quickPickAnswers.shift(),
  showErrorMessage: async (text: string, ...items: string[]) => { messages.push({ level: 'error', text, items }); return messageAnswers.shift(); },
  showInformationMessage: async (text: string, ...items: string[]) => { messages.push({ level: 'info', text, items }); return messageAnswers.shift(); },
  showWarningMessage: async (text: string, ...items: string[]) => { messages.push({ level: 'warning', text, items }); return messageAnswers.shift(); },
  showTextDocument: async () => undefined,
};

export const commands = {
  registerCommand: (id: string, f: (...a: any[]) => unknown) => { registeredCommands.set(id, f); return { dispose: () => registeredCommands.delete(id) }; },
  executeCommand: async (id: string, ...args: unknown[]) => { calls.push({ method: 'executeCommand', args: [id, ...args] }); return registeredCommands.get(id)?.(...args); },
};

export const workspace = {
  workspaceFolders: undefined as unknown,
  getConfiguration: () => ({ get: (k: string) => config[k] }),
  findFiles: async () => [],
  fs: { readFile: async () => new Uint8Array() },
  openTextDocument: async () => ({}),
  createFileSystemWatcher: (glob: string) => {
    const w = { glob, created: new EventEmitter<unknown>(), changed: new EventEmitter<unknown>(), dispose() {} };
    watchers.push(w);
    return { onDidCreate: w.created.event, onDidChange: w.changed.event, onDidDelete: new EventEmitter<unknown>().event, dispose() {} };
  },
  onDidChangeConfiguration: (l: (e: { affectsConfiguration(s: string): boolean }) => void) => configListeners.event(l),
};

export const watchers: { glob: string; created: EventEmitter<unknown>; changed: EventEmitter<unknown> }[] = [];
export const configListeners = new EventEmitter<{ affectsConfiguration(s: string): boolean }>();
/** Fires onDidChangeConfiguration for one setting. */
export function changeConfig(key: string, value: unknown): void {
  config[key.replace(/^cumulus\./, '')] = value;
  configListeners.fire({ affectsConfiguration: (s: string) => key === s || key.startsWith(s + '.') });
}

export const debugSessions: { folder: unknown; configuration: unknown }[] = [];
export const debug = {
  startDebugging: async (folder: unknown, configuration: unknown) => { debugSessions.push({ folder, configuration }); return true; },
};

export const extensionsChanged = new EventEmitter<void>();
export const extensions = {
  getExtension: (id: string) => ([...installedExtensions].some((x) => x.toLowerCase() === id.toLowerCase()) ? { id } : undefined),
  onDidChange: (l: () => void) => extensionsChanged.event(l),
};

export const taskProviders = new Map<string, { provideTasks(): Task[]; resolveTask(t: Task): Task | undefined }>();
export const tasks = {
  registerTaskProvider: (type: string, p: any) => { calls.push({ method: 'registerTaskProvider', args: [type, p] }); taskProviders.set(type, p); return { dispose() {} }; },
};
export const TaskScope = { Global: 1, Workspace: 2 };
export class CustomExecution { constructor(public callback: (d: unknown) => Promise<unknown>) {} }
export class Task { detail?: string;
  constructor(public definition: { type: string; [k: string]: unknown }, public scope: unknown, public name: string,
    public source: string, public execution?: CustomExecution) {} }

export function reset(): void {
  calls.length = 0;
  registeredCommands.clear();
  taskProviders.clear();
  inputAnswers.length = 0;
  quickPickAnswers.length = 0;
  messages.length = 0;
  messageAnswers.length = 0;
  installedExtensions.clear();
  debugSessions.length = 0;
  watchers.length = 0;
  configListeners.clear();
  extensionsChanged.clear();
  channels.clear();
  treeViews.clear();
  workspace.workspaceFolders = undefined;
  for (const k of Object.keys(config)) delete config[k];
  window.activeTextEditor = undefined;
}
