// A small stand-in for the `vscode` module, enough for the extension's logic (not its UI). Installed by
// register-mock.ts through Module._resolveFilename before the extension is loaded.
export const calls: { method: string; args: unknown[] }[] = [];
export const registeredCommands = new Map<string, (...a: any[]) => unknown>();
export const inputAnswers: (string | undefined)[] = [];
export const quickPickAnswers: unknown[] = [];
export const messages: { level: string; text: string }[] = [];
export const config: Record<string, unknown> = {};
export const channels = new Map<string, { lines: string[] }>();

export class EventEmitter<T> {
  private ls: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => { this.ls.push(l); return { dispose() {} }; };
  fire(e: T) { for (const l of this.ls) l(e); }
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
  createStatusBarItem: () => ({ text: '', tooltip: '', command: '', show() {}, dispose() {} }),
  registerTreeDataProvider: (id: string, p: unknown) => { calls.push({ method: 'registerTreeDataProvider', args: [id, p] }); return { dispose() {} }; },
  registerWebviewViewProvider: (id: string, p: unknown) => { calls.push({ method: 'registerWebviewViewProvider', args: [id, p] }); return { dispose() {} }; },
  showInputBox: async (o: { validateInput?: (v: string) => string | undefined }) => { const a = inputAnswers.shift(); calls.push({ method: 'showInputBox', args: [o, a] }); return a; },
  showQuickPick: async () => quickPickAnswers.shift(),
  showErrorMessage: async (text: string) => { messages.push({ level: 'error', text }); return undefined; },
  showInformationMessage: async (text: string) => { messages.push({ level: 'info', text }); return undefined; },
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
  createFileSystemWatcher: () => ({ dispose() {} }),
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
  channels.clear();
  for (const k of Object.keys(config)) delete config[k];
  window.activeTextEditor = undefined;
}
