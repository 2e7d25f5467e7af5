// Entry point: starts the Cumulus language server and wires commands, the run view, the profile view, the status bar
// and the `cumulus` task type (cluster runs from "Run Task").
import * as cp from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { findJdk } from './jdk';
import { findObjectLine, ProfileModel, ProfileRow } from './profile';
import { ProfileRecord } from './profileSchema';
import { LAG_NOTE, ProfileViewProvider } from './profileView';
import * as P from './protocol';
import { NodeChannels, RunModel, RunTreeProvider, statusText } from './runView';
import { findCumulusRoot, mainClassOf, readTemplates, serverJar, serverLaunch, validateNodes } from './server';
import { CumulusTaskProvider, RunEvent, TASK_TYPE } from './tasks';

/** The part of a language client the extension uses (vscode-languageclient's LanguageClient, or a test double). */
export interface Client {
  sendRequest(method: string, params?: unknown): Promise<unknown>;
  sendNotification(method: string, params?: unknown): Promise<void> | void;
  onNotification(method: string, handler: (params: any) => void): unknown;
  stop(): Promise<void>;
}

export interface Deps {
  startClient?: (context: vscode.ExtensionContext, javaHome: string, root: string, log: vscode.OutputChannel) => Promise<Client>;
}

export const NODES_KEY = 'cumulus.lastNodes';

export class CumulusExtension {
  readonly runModel = new RunModel();
  readonly profile = new ProfileModel();
  readonly channels = new NodeChannels();
  readonly log: vscode.OutputChannel;
  readonly status: vscode.StatusBarItem;
  client?: Client;
  root?: string;
  private profileView: ProfileViewProvider;
  private runListeners = new Set<(e: RunEvent) => void>();

  constructor(private readonly context: vscode.ExtensionContext, private readonly deps: Deps) {
    this.log = vscode.window.createOutputChannel('Cumulus');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.command = 'cumulus.showCommunicationProfile';
    this.status.text = statusText(this.runModel);
    this.status.tooltip = 'Cumulus cluster run';
    this.status.show();
    this.runModel.onChange(() => {
      this.status.text = statusText(this.runModel);
      const r = this.runModel.run;
      this.status.tooltip = r?.message ? `Cumulus cluster run: ${r.state}: ${r.message}` : 'Cumulus cluster run';
      void vscode.commands.executeCommand('setContext', 'cumulus.running', this.runModel.running);
    });
    this.profileView = new ProfileViewProvider(this.profile, (row) => void this.openSource(row));
    const s = context.subscriptions;
    s.push(this.log, this.status, { dispose: () => this.channels.dispose() });
    s.push(vscode.window.registerTreeDataProvider('cumulus.runView', new RunTreeProvider(this.runModel)));
    s.push(vscode.window.registerWebviewViewProvider(ProfileViewProvider.viewId, this.profileView,
      { webviewOptions: { retainContextWhenHidden: true } }));
    s.push(vscode.commands.registerCommand('cumulus.runOnCluster', (args?: { nodes?: number; mainClass?: string }) => this.runOnCluster(args)));
    s.push(vscode.commands.registerCommand('cumulus.stopRun', () => this.stopRun()));
    s.push(vscode.commands.registerCommand('cumulus.newProjectFromTemplate', () => this.newProject()));
    s.push(vscode.commands.registerCommand('cumulus.showCommunicationProfile', () => this.showProfile()));
    s.push(vscode.commands.registerCommand('cumulus.showNodeOutput', (node?: number) => this.channels.channel(node ?? 0).show(true)));
    s.push(vscode.commands.registerCommand('cumulus.restartServer', () => this.restart()));
    s.push(vscode.tasks.registerTaskProvider(TASK_TYPE, new CumulusTaskProvider(this)));
  }

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('cumulus');
  }

  /** Starts the language server; shows an error that names what to install when there is no JDK 25 or no server. */
  async startServer(): Promise<void> {
    const jdk = findJdk(this.config().get<string>('javaHome') || undefined);
    if ('error' in jdk) {
      this.log.appendLine(jdk.error);
      void vscode.window.showErrorMessage(jdk.error);
      return;
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    this.root = findCumulusRoot(this.config().get<string>('serverPath') || undefined, folders, process.env);
    if (!this.root || !fs.existsSync(serverJar(this.root))) {
      const msg = `Cumulus language server not found${this.root ? ` at ${serverJar(this.root)}` : ''}. Set 'cumulus.serverPath' ` +
        'to your Cumulus checkout and build it with ./build.';
      this.log.appendLine(msg);
      void vscode.window.showErrorMessage(msg);
      return;
    }
    this.log.appendLine(`Starting the Cumulus language server with ${jdk.home} (Java ${jdk.major}) from ${this.root}`);
    const start = this.deps.startClient ?? startLanguageClient;
    try {
      this.client = await start(this.context, jdk.home, this.root, this.log);
    } catch (e) {
      const msg = `The Cumulus language server did not start: ${e instanceof Error ? e.message : e}`;
      this.log.appendLine(msg);
      void vscode.window.showErrorMessage(msg);
      return;
    }
    this.client.onNotification(P.NODE_OUTPUT, (o: P.NodeOutput) => this.onNodeOutput(o));
    this.client.onNotification(P.RUN_STATUS, (st: P.RunStatus) => this.onRunStatus(st));
    this.client.onNotification(P.PROFILE, (r: ProfileRecord) => this.onProfile(r));
  }

  async restart(): Promise<void> {
    await this.client?.stop().catch(() => undefined);
    this.client = undefined;
    await this.startServer();
  }

  onNodeOutput(o: P.NodeOutput): void {
    this.channels.append(o);
    this.runModel.output(o);
    this.emit({ output: o });
  }

  /** Follows the current run's output and status (the `cumulus` task's terminal does); returns the unsubscribe. */
  onRunEvent(listener: (e: RunEvent) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  private emit(e: RunEvent): void {
    for (const l of [...this.runListeners]) l(e);
  }

  onRunStatus(s: P.RunStatus): void {
    const wasFailed = this.runModel.run?.state === 'failed';
    this.runModel.status(s);
    const message = this.runModel.run?.message ?? s.message;
    this.channels.channel(-1).appendLine(`run ${s.state}${s.exitCode != null ? ` (exit ${s.exitCode})` : ''}${message ? `: ${message}` : ''}`);
    this.profile.running = this.runModel.running;
    if (s.runDir) this.profile.runDir = s.runDir;
    this.profile.refresh();
    this.emit({ status: s });
    if (s.state === 'failed' && !wasFailed && s.exitCode !== 130 && s.exitCode !== 143) {
      void vscode.window.showErrorMessage(`Cumulus run failed: ${message ?? 'see the Cumulus Run output'}`, 'Show Output')
        .then((pick) => { if (pick) this.channels.channel(-1).show(true); });
    }
  }

  /** One record of the run's profile channel (a live window or the report): into the profile view. */
  onProfile(r: ProfileRecord): void {
    for (const object of this.profile.accept(r)) void this.locate(object);
  }

  private async locate(object: string): Promise<void> {
    if (this.profile.get(object)?.source) return;
    const files = await vscode.workspace.findFiles('**/*.java', '**/{target,node_modules}/**', 200);
    for (const f of files) {
      try {
        const text = Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8');
        const line = findObjectLine(text, object);
        if (line >= 0) {
          this.profile.setSource(object, { uri: f.toString(), line });
          return;
        }
      } catch {
        // unreadable file
      }
    }
  }

  private async openSource(row: ProfileRow): Promise<void> {
    if (!row.source) {
      await this.locate(row.object);
      row = this.profile.get(row.object) ?? row;
    }
    if (!row.source) {
      void vscode.window.showInformationMessage(`No source line found for '${row.object}'.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(row.source.uri));
    const pos = new vscode.Position(row.source.line, 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
  }

  /** The node count: asked with an input box, proposed from (and remembered in) workspaceState. */
  async askNodes(): Promise<number | undefined> {
    const last = this.context.workspaceState.get<number>(NODES_KEY) ?? this.config().get<number>('defaultNodes') ?? 2;
    const text = await vscode.window.showInputBox({
      title: 'Cumulus: Run on Cluster', prompt: 'Number of nodes (JVMs on this machine)', value: String(last),
      validateInput: validateNodes,
    });
    if (text === undefined || validateNodes(text)) return undefined;
    const n = Number(text);
    await this.context.workspaceState.update(NODES_KEY, n);
    return n;
  }

  /** The main class: the active editor's class when it has a main method, else asked. */
  async askMainClass(): Promise<string | undefined> {
    const editor = vscode.window.activeTextEditor;
    const fromEditor = editor && editor.document.languageId === 'java'
      ? mainClassOf(editor.document.getText(), editor.document.fileName) : undefined;
    if (fromEditor) return fromEditor;
    const last = this.context.workspaceState.get<string>('cumulus.lastMainClass') ?? '';
    const main = await vscode.window.showInputBox({
      title: 'Cumulus: Run on Cluster', prompt: 'Main class (binary name), e.g. org.example.Main', value: last,
      validateInput: (t) => (/^[\w$]+(\.[\w$]+)*$/.test(t.trim()) ? undefined : 'a class name like org.example.Main'),
    });
    if (main) await this.context.workspaceState.update('cumulus.lastMainClass', main.trim());
    return main?.trim() || undefined;
  }

  async runOnCluster(args?: { nodes?: number; mainClass?: string }): Promise<boolean> {
    const nodes = args?.nodes ?? (await this.askNodes());
    if (!nodes) return false;
    const mainClass = args?.mainClass || (await this.askMainClass());
    if (!mainClass) return false;
    if (!this.client) {
      void vscode.window.showErrorMessage('The Cumulus language server is not running (see the Cumulus output).');
      return false;
    }
    this.channels.clear();
    this.profile.reset();
    this.profile.running = true;
    this.runModel.start(mainClass, nodes);
    void this.client.sendNotification(P.PROFILE_RESET, {});
    this.channels.channel(-1).appendLine(`Starting ${mainClass} on ${nodes} nodes. ${LAG_NOTE}`);
    try {
      const args: P.RunArgs = [nodes, mainClass];
      await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.run, arguments: args });
      void vscode.commands.executeCommand('cumulus.runView.focus');
      return true;
    } catch (e) {
      // refused before anything started (compile errors, a run still going, no cumulus command): the server's words
      const msg = e instanceof Error ? e.message : String(e);
      this.onRunStatus({ state: 'failed', message: msg });
      void vscode.commands.executeCommand('cumulus.runView.focus');
      return false;
    }
  }

  async stopRun(): Promise<void> {
    if (!this.client) return;
    try {
      await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.stop, arguments: [] });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cumulus: ${e instanceof Error ? e.message : e}`);
    }
  }

  async newProject(): Promise<void> {
    const root = this.root ?? findCumulusRoot(this.config().get<string>('serverPath') || undefined,
      (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), process.env);
    const templates = root ? readTemplates(root) : [];
    if (templates.length === 0) {
      void vscode.window.showErrorMessage("No Cumulus templates found: set 'cumulus.serverPath' to your Cumulus checkout.");
      return;
    }
    const pick = await vscode.window.showQuickPick(
      templates.map((t) => ({ label: t.name, detail: t.description })), { title: 'Cumulus: New Project — template' });
    if (!pick) return;
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/tmp';
    const dir = await vscode.window.showInputBox({ title: 'Cumulus: New Project — directory', value: path.join(base, `cumulus-${pick.label}`),
      prompt: 'A new or empty directory' });
    if (!dir) return;
    const t = templates.find((x) => x.name === pick.label)!;
    const pkgVar = t.variables.find((v) => v.name === 'package');
    const pkg = await vscode.window.showInputBox({ title: 'Cumulus: New Project — package', value: pkgVar?.default ?? 'org.example',
      validateInput: (v) => (pkgVar?.pattern && !new RegExp(`^(?:${pkgVar.pattern})$`).test(v) ? pkgVar.message ?? 'invalid' : undefined) });
    if (pkg === undefined) return;
    let output: string;
    try {
      output = this.client
        ? String(await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.newProject, arguments: [t.name, dir, pkg] as P.NewProjectArgs }))
        : cp.execFileSync(path.join(root!, 'cumulus'), ['new', t.name, dir, '--package', pkg], { encoding: 'utf8' });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cumulus: ${e instanceof Error ? e.message : e}`);
      return;
    }
    this.log.appendLine(output);
    const open = await vscode.window.showInformationMessage(`Created ${dir} from '${t.name}'.`, 'Open Folder');
    if (open) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(dir), { forceNewWindow: false });
  }

  async showProfile(): Promise<void> {
    await vscode.commands.executeCommand('cumulus.profileView.focus');
    this.profileView.reveal();
  }
}

async function startLanguageClient(context: vscode.ExtensionContext, javaHome: string, root: string,
                                   log: vscode.OutputChannel): Promise<Client> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const lc = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');
  const launch = serverLaunch(javaHome, root);
  const client = new lc.LanguageClient('cumulus', 'Cumulus Language Server',
    // no `transport`: with TransportKind.stdio the client would append --stdio to the Java program's arguments
    { run: { command: launch.command, args: launch.args }, debug: { command: launch.command, args: launch.args } },
    {
      documentSelector: [{ scheme: 'file', language: 'java' }],
      outputChannel: log,
      initializationOptions: { cumulusCommand: path.join(root, 'cumulus') },
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.java') },
    });
  await client.start();
  context.subscriptions.push({ dispose: () => void client.stop() });
  return client as unknown as Client;
}

let instance: CumulusExtension | undefined;

export async function activate(context: vscode.ExtensionContext, deps: Deps = {}): Promise<CumulusExtension> {
  instance = new CumulusExtension(context, deps);
  await instance.startServer();
  return instance;
}

export async function deactivate(): Promise<void> {
  await instance?.client?.stop().catch(() => undefined);
  instance = undefined;
}
