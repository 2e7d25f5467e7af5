import './register-mock';
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import * as vscode from './vscode-mock';
import * as vm from 'node:vm';
import { activate, attachConfiguration, Client, INSTALL_JAVA_DEBUGGER, JAVA_DEBUGGER, JAVA_PACK_NOTICE_KEY, javaErrorsOn, newProjectDir, NODES_KEY, OPEN_SETTINGS, ServerStart } from '../../src/extension';
import { findJdk, JdkFs, NO_JDK_MESSAGE } from '../../src/jdk';
import { cumulusEvidence, NOT_CUMULUS_MESSAGE, WorkspaceFs } from '../../src/workspace';
import { callersText, findObjectLine, locationStrip, ProfileModel } from '../../src/profile';
import { LiveFigures, LiveWindow, ObjectFigures, Placement, ProfileReport, Suggestion } from '../../src/profileSchema';
import { RunTerminal } from '../../src/tasks';
import * as P from '../../src/protocol';
import { failureReason, RunModel, RunTreeProvider, statusText } from '../../src/runView';
import { COLUMNS, EMPTY, latencyText, NARROW_PX, profileHtml, viewRows, WIDE_PX } from '../../src/profileView';
import { ClustersModel, ClustersPoller, ClustersTreeProvider, objectText, parseClusterList, parsePs, refreshClusters, serverText } from '../../src/clustersView';
import { checkoutServer, findCumulusRoot, findServer, mainClassOf, serverLaunch, validateNodes } from '../../src/server';

const extRoot = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));

class FakeClient implements Client {
  requests: { method: string; params: unknown }[] = [];
  notifications: { method: string; params: unknown }[] = [];
  handlers = new Map<string, (p: any) => void>();
  async sendRequest(method: string, params?: unknown) { this.requests.push({ method, params }); return true; }
  sendNotification(method: string, params?: unknown) { this.notifications.push({ method, params }); }
  onNotification(method: string, h: (p: any) => void) { this.handlers.set(method, h); return { dispose() {} }; }
  async stop() {}
}

function context(extensionPath = '/nonexistent/extension') {
  const state = new Map<string, unknown>();
  const global = new Map<string, unknown>();
  return {
    subscriptions: [] as { dispose(): unknown }[],
    workspaceState: { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => { state.set(k, v); } },
    globalState: { get: (k: string) => global.get(k), update: async (k: string, v: unknown) => { global.set(k, v); } },
    extensionPath,
    storageUri: vscode.Uri.file('/storage/ws'),
    globalStorageUri: vscode.Uri.file('/storage/global'),
    state,
    global,
  };
}

/** The temporary folders the tests made: removed when the file's tests end. */
const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A JDK 25 home with bin/java, bin/javac and a release file. */
function fakeJdk(version = '25.0.1'): string {
  const jdk = fs.mkdtempSync('/tmp/cumulus-jdk-test-');
  made.push(jdk);
  fs.mkdirSync(path.join(jdk, 'bin'));
  fs.writeFileSync(path.join(jdk, 'bin', 'java'), '');
  fs.writeFileSync(path.join(jdk, 'bin', 'javac'), '');
  fs.writeFileSync(path.join(jdk, 'release'), `JAVA_VERSION="${version}"\n`);
  return jdk;
}

/** A project folder with the given files. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync('/tmp/cumulus-project-test-');
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** A JDK 25, a Cumulus checkout with a built server (cumulus.serverPath) opened as the workspace: the client starts. */
async function activated(ctx = context()) {
  const client = new FakeClient();
  const fakeRoot = project({ 'lsp-server/target/cumulus-lsp.jar': '', cumulus: '', '.cumulus': '' });
  vscode.config.javaHome = fakeJdk();
  vscode.config.serverPath = fakeRoot;
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(fakeRoot) }];
  const starts: ServerStart[] = [];
  const ext = await activate(ctx as any, { startClient: async (_c, start) => { starts.push(start); return client; } });
  return { ext, client, ctx, fakeRoot, starts };
}

describe('activate', () => {
  beforeEach(() => vscode.reset());

  it('registers every command contributed in package.json', async () => {
    await activated();
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(contributed.length >= 4);
    for (const id of contributed) {
      assert.ok(vscode.registeredCommands.has(id), `command ${id} is contributed but not registered by activate`);
    }
    // vscode-languageclient registers the server's executeCommand commands under their own ids: no clash allowed
    for (const id of Object.values(P.Commands)) {
      assert.ok(!contributed.includes(id), `contributed command ${id} clashes with the server command of that name`);
    }
    for (const id of vscode.registeredCommands.keys()) {
      assert.ok(contributed.includes(id), `command ${id} is registered but not contributed`);
    }
  });

  it('registers the run view, the profile view and a provider for every task type named in package.json', async () => {
    await activated();
    const views = manifest.contributes.views.cumulus.map((v: { id: string }) => v.id);
    const registered = vscode.calls.filter((c) => c.method.startsWith('register') || c.method === 'createTreeView')
      .map((c) => c.args[0]);
    for (const v of views) assert.ok(registered.includes(v), `view ${v} is registered`);
    const types: string[] = manifest.contributes.taskDefinitions.map((t: { type: string }) => t.type);
    assert.deepEqual(types, ['cumulus']);
    for (const t of types) {
      assert.ok(vscode.taskProviders.has(t), `task type ${t} is contributed but has no provider`);
      assert.ok(manifest.activationEvents.includes(`onTaskType:${t}`), `Run Task activates the extension for ${t}`);
    }
    assert.equal(manifest.contributes.debuggers, undefined, 'no debugger is contributed: there is no debug adapter');
    assert.ok(!manifest.activationEvents.some((e: string) => e.startsWith('onDebug')));
  });

  it('without a JDK 25 shows an error that names what to install, with a button to the setting', async () => {
    vscode.config.javaHome = '/nonexistent/jdk';
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(project({ '.cumulus': '' })) }];
    vscode.messageAnswers.push(OPEN_SETTINGS);
    await activate(context() as any, { startClient: async () => { throw new Error('must not start'); } });
    const err = vscode.messages.find((m) => m.level === 'error');
    assert.ok(err && /JDK 25/.test(err.text) && /temurin-25-jdk/.test(err.text), err?.text);
    assert.deepEqual(err.items, [OPEN_SETTINGS]);
    await new Promise((r) => setImmediate(r));
    assert.ok(vscode.calls.some((c) => c.method === 'executeCommand' && c.args[0] === 'workbench.action.openSettings'
      && c.args[1] === 'cumulus.javaHome'), 'the button opens cumulus.javaHome');
  });
});

describe('where the server starts', () => {
  beforeEach(() => vscode.reset());

  it('not in a plain Maven project: no server, no status bar item, the log says why and how to start it', async () => {
    vscode.config.javaHome = fakeJdk();
    const plain = project({ 'pom.xml': '<project><groupId>org.example</groupId><artifactId>plain</artifactId></project>',
      'src/main/java/A.java': 'class A {}' });
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(plain) }];
    const ext = await activate(context() as any, { startClient: async () => { throw new Error('must not start'); } });
    assert.equal(ext.client, undefined);
    assert.equal((ext.status as unknown as { visible: boolean }).visible, false);
    assert.ok(vscode.channels.get('Cumulus')!.lines.includes(NOT_CUMULUS_MESSAGE));
    assert.deepEqual(fs.readdirSync(plain).sort(), ['pom.xml', 'src'], 'nothing written into the project');
    assert.equal(await ext.runOnCluster({ nodes: 2, mainClass: 'A' }), false);
    assert.ok(vscode.messages.some((m) => m.level === 'error' && m.text === NOT_CUMULUS_MESSAGE));
  });

  it('starts once a build file starts to mention dev.cumulus', async () => {
    vscode.config.javaHome = fakeJdk();
    const dir = project({ 'pom.xml': '<project></project>' });
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(dir) }];
    const client = new FakeClient();
    const ext = await activate(context(project({ 'server/cumulus-lsp.jar': '' })) as any, { startClient: async () => client });
    assert.equal(ext.client, undefined);
    fs.writeFileSync(path.join(dir, 'pom.xml'), '<project><dependency><groupId>dev.cumulus</groupId></dependency></project>');
    const watcher = vscode.watchers.find((w) => w.glob.includes('pom.xml') && w.glob.includes('.cumulus'))!;
    watcher.changed.fire({});
    await new Promise((r) => setImmediate(r));
    assert.equal(ext.client, client);
  });

  it('knows a Cumulus workspace by its Maven or Gradle build or a .cumulus marker', () => {
    const files = new Map<string, string>([
      ['/m/pom.xml', '<dependency><groupId>dev.cumulus</groupId><artifactId>cumulus-runtime</artifactId></dependency>'],
      ['/g/app/build.gradle.kts', 'dependencies { implementation("dev.cumulus:cumulus-runtime:0.1.0") }'],
      ['/k/.cumulus', ''],
      ['/p/pom.xml', '<groupId>org.example</groupId>'],
      ['/p/node_modules/x/pom.xml', 'dev.cumulus'],
    ]);
    const f: WorkspaceFs = { exists: (p) => files.has(p), readFile: (p) => files.get(p),
      folders: (p) => ({ '/g': ['app'], '/p': ['node_modules', 'src'] } as Record<string, string[]>)[p] ?? [] };
    assert.match(cumulusEvidence(['/m'], f)!, /pom\.xml mentions dev\.cumulus/);
    assert.match(cumulusEvidence(['/g'], f)!, /app\/build\.gradle\.kts/);
    assert.match(cumulusEvidence(['/k'], f)!, /\.cumulus marks it/);
    assert.equal(cumulusEvidence(['/p'], f), undefined);
    assert.equal(cumulusEvidence([], f), undefined);
  });

  it('runs the bundled server unless cumulus.serverPath names a built checkout; caches the classpath in its storage', async () => {
    const extDir = project({ 'server/cumulus-lsp.jar': '' });
    vscode.config.javaHome = fakeJdk();
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(project({ '.cumulus': '' })) }];
    const starts: ServerStart[] = [];
    await activate(context(extDir) as any, { startClient: async (_c, s) => { starts.push(s); return new FakeClient(); } });
    assert.equal(starts.length, 1);
    assert.equal(starts[0].server.jar, path.join(extDir, 'server', 'cumulus-lsp.jar'));
    assert.equal(starts[0].options.classpathCacheDir, path.join('/storage/ws', 'classpath'));
    assert.equal(starts[0].options.javaErrors, true);
    assert.equal(findServer('/none', extDir)?.origin, 'bundled with the extension');
    assert.equal(findServer(undefined, '/no/extension'), undefined);
  });

  it('says the server is missing, with a button to cumulus.serverPath, when there is none', async () => {
    vscode.config.javaHome = fakeJdk();
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(project({ '.cumulus': '' })) }];
    await activate(context('/no/extension') as any, { startClient: async () => { throw new Error('must not start'); } });
    const err = vscode.messages.find((m) => m.level === 'error')!;
    assert.match(err.text, /language server is missing.*Reinstall the extension/);
    assert.deepEqual(err.items, [OPEN_SETTINGS]);
  });
});

describe('Java errors and the rest of Java', () => {
  beforeEach(() => vscode.reset());

  it('cumulus.javaErrors: auto leaves Java errors to an installed Java language server', () => {
    assert.equal(javaErrorsOn('auto', () => false), true);
    assert.equal(javaErrorsOn(undefined, (id) => id === 'redhat.java'), false);
    assert.equal(javaErrorsOn('on', () => true), true);
    assert.equal(javaErrorsOn('off', () => false), false);
  });

  it('tells the server when the setting or the installed extensions change the answer', async () => {
    const { client, starts } = await activated();
    assert.equal(starts[0].options.javaErrors, true);
    vscode.changeConfig('cumulus.javaErrors', 'off');
    vscode.installedExtensions.add('redhat.java');
    vscode.extensionsChanged.fire();
    vscode.changeConfig('cumulus.javaErrors', 'auto');
    vscode.changeConfig('cumulus.javaErrors', 'on');
    const sent = client.notifications.filter((n) => n.method === P.DID_CHANGE_CONFIGURATION).map((n) => n.params);
    assert.deepEqual(sent, [{ settings: { cumulus: { javaErrors: false } } }, { settings: { cumulus: { javaErrors: true } } }]);
  });

  it('sends cumulus.singleVm at start and when it changes', async () => {
    const { client, starts } = await activated();
    assert.equal(starts[0].options.singleVm, false);
    vscode.changeConfig('cumulus.singleVm', true);
    vscode.changeConfig('cumulus.singleVm', true);
    vscode.changeConfig('cumulus.singleVm', false);
    const sent = client.notifications.filter((n) => n.method === P.DID_CHANGE_CONFIGURATION).map((n) => n.params);
    assert.deepEqual(sent, [{ settings: { cumulus: { singleVm: true } } }, { settings: { cumulus: { singleVm: false } } }]);
  });

  it('recommends the Java extension pack once, and not where a Java extension is installed', async () => {
    const ctx = context();
    await activated(ctx);
    const notices = () => vscode.messages.filter((m) => m.level === 'info' && /Extension Pack for Java/.test(m.text));
    assert.equal(notices().length, 1);
    assert.equal(ctx.global.get(JAVA_PACK_NOTICE_KEY), true);
    await activated(ctx);
    assert.equal(notices().length, 1, 'shown once per installation');
    vscode.reset();
    vscode.installedExtensions.add('vscjava.vscode-java-pack');
    await activated();
    assert.equal(notices().length, 0);
  });
});

describe('Run on Cluster', () => {
  beforeEach(() => vscode.reset());

  it('asks the node count, remembers it, takes the main class from the editor and sends cumulus.run', async () => {
    const { ext, client, ctx } = await activated();
    vscode.window.activeTextEditor = { document: { languageId: 'java', fileName: '/p/src/Main.java',
      getText: () => 'package org.acme;\npublic final class Main { public static void main(String[] a) {} }' } };
    vscode.inputAnswers.push('3');
    assert.equal(await vscode.commands.executeCommand('cumulus.runOnCluster'), true);
    assert.equal(ctx.state.get(NODES_KEY), 3);
    const run = client.requests.find((r) => r.method === 'workspace/executeCommand');
    assert.deepEqual(run?.params, { command: P.Commands.run, arguments: [3, 'org.acme.Main'] });
    assert.ok(client.notifications.some((n) => n.method === P.PROFILE_RESET));
    assert.equal(ext.runModel.run?.nodes, 3);

    // next time the remembered count is proposed
    vscode.inputAnswers.push(undefined);
    await vscode.commands.executeCommand('cumulus.runOnCluster');
    const box = vscode.calls.filter((c) => c.method === 'showInputBox').at(-1)!.args[0] as { value: string };
    assert.equal(box.value, '3');
  });

  it('asks for the main class when the editor has none', async () => {
    const { client } = await activated();
    vscode.inputAnswers.push('2', 'org.example.Search');
    await vscode.commands.executeCommand('cumulus.runOnCluster');
    assert.deepEqual((client.requests.at(-1)!.params as any).arguments, [2, 'org.example.Search']);
  });

  it('feeds node output, run status, live windows and the report into the views', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 2, mainClass: 'a.Main' });
    const out = client.handlers.get(P.NODE_OUTPUT)!;
    const status = client.handlers.get(P.RUN_STATUS)!;
    const profile = client.handlers.get(P.PROFILE)!;
    status({ state: 'running' });
    out({ node: 0, line: 'hello from 0', stream: 'stdout' });
    out({ node: 1, line: 'hello from 1', stream: 'stdout' });
    assert.match(ext.status.text, /running on 2 nodes/);
    profile(window(0, [{ kind: 'cloud', name: 'best', writes: 600, writesPerSec: 600, p50WriteUs: 20, p99WriteUs: 35, bytes: 0, migrations: 2 }]));
    assert.equal(ext.profile.get('best'), undefined, 'one node\'s window is not shown on its own');
    profile(figures([fig('cloud', 'best', 1200, 1200, 50)]));
    assert.equal(ext.profile.get('best')?.figures.operationsPerSec, 1200, 'the cluster\'s figures, as the profiler made them');
    assert.equal(ext.profile.get('best')?.figures.p99Us, 50);
    assert.equal(ext.profile.running, true);
    out({ node: 1, line: 'bye', stream: 'stdout' });
    profile(REPORT);
    status({ state: 'finished', exitCode: 0, runDir: '/r' });
    assert.deepEqual(ext.runModel.nodeStates, ['exited', 'exited']);
    assert.match(ext.status.text, /finished/);
    assert.equal(ext.profile.get('counter')?.figures.operations, 20);
    assert.equal(ext.profile.get('tally')?.figures.operations, 500);
    assert.equal(ext.profile.get('best'), undefined, 'the report\'s objects replace the live ones');
    assert.equal(ext.profile.live, false);
    assert.equal(ext.profile.runDir, '/r');
    assert.ok(!client.requests.some((r) => r.method.startsWith('cumulus/')), 'nothing goes back to the server');
    assert.deepEqual(vscode.channels.get('Cumulus Node 1')?.lines, ['hello from 1', 'bye']);
  });
});

describe('Debug node', () => {
  beforeEach(() => vscode.reset());

  it('asks which nodes, sends cumulus.run with them, and attaches a Java session to each node that listens', async () => {
    const { client, ext } = await activated();
    vscode.installedExtensions.add(JAVA_DEBUGGER);
    vscode.quickPickAnswers.push([{ label: 'node 1' }, { label: 'node 2' }]);
    assert.equal(await vscode.commands.executeCommand('cumulus.debugOnCluster', { nodes: 3, mainClass: 'org.acme.Main' }), true);
    const run = client.requests.find((r) => r.method === 'workspace/executeCommand');
    assert.deepEqual(run?.params, { command: P.Commands.run, arguments: [3, 'org.acme.Main', '1,2'] });
    client.handlers.get(P.DEBUG_READY)!({ node: 2, host: '127.0.0.1', port: 40123 });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(vscode.debugSessions.map((d) => d.configuration),
      [{ type: 'java', request: 'attach', name: 'Cumulus node 2', hostName: '127.0.0.1', port: 40123 }]);
    assert.deepEqual(attachConfiguration({ node: 0, host: 'h', port: 1 }).type, 'java');
    assert.ok(vscode.channels.get('Cumulus Run')?.lines.some((l) => /Node 2 waits for a Java debugger at 127.0.0.1:40123/.test(l)));
    assert.ok(ext.runModel.run);
  });

  it('without the Java debugger extension says what to install and where to attach instead', async () => {
    const { client } = await activated();
    await vscode.commands.executeCommand('cumulus.debugOnCluster', { nodes: 2, mainClass: 'a.Main', debugNodes: '1' });
    vscode.messageAnswers.push(INSTALL_JAVA_DEBUGGER);
    client.handlers.get(P.DEBUG_READY)!({ node: 1, host: '127.0.0.1', port: 40200 });
    await new Promise((r) => setImmediate(r));
    assert.equal(vscode.debugSessions.length, 0);
    const warning = vscode.messages.find((m) => m.level === 'warning');
    assert.ok(warning && warning.text.includes(JAVA_DEBUGGER) && warning.text.includes('jdb -attach 127.0.0.1:40200'), warning?.text);
    assert.ok(vscode.calls.some((c) => c.method === 'executeCommand' && c.args[0] === 'workbench.extensions.search'
      && String(c.args[1]).includes(JAVA_DEBUGGER)));
  });

  it('a dismissed node pick starts nothing', async () => {
    const { client } = await activated();
    vscode.quickPickAnswers.push(undefined);
    assert.equal(await vscode.commands.executeCommand('cumulus.debugOnCluster', { nodes: 2, mainClass: 'a.Main' }), false);
    assert.equal(client.requests.filter((r) => r.method === 'workspace/executeCommand').length, 0);
  });
});

describe('the cumulus task', () => {
  beforeEach(() => vscode.reset());

  it('Run Task offers a cluster run; its terminal shows the run and closes with its exit code', async () => {
    const { ext, client } = await activated();
    const provider = vscode.taskProviders.get('cumulus')!;
    const [task] = provider.provideTasks();
    assert.equal(task.definition.type, 'cumulus');
    const resolved = provider.resolveTask(new vscode.Task({ type: 'cumulus', nodes: 3, mainClass: 'a.Main' }, 2, 'mine', 'cumulus'))!;
    assert.equal(resolved.name, 'mine');
    const term = (await resolved.execution!.callback(resolved.definition)) as RunTerminal;
    const written: string[] = [];
    const closed: number[] = [];
    term.onDidWrite((t) => written.push(t));
    term.onDidClose((c) => closed.push(c));
    await term.open();
    const run = client.requests.find((r) => r.method === 'workspace/executeCommand');
    assert.deepEqual(run?.params, { command: P.Commands.run, arguments: [3, 'a.Main'] });
    client.handlers.get(P.NODE_OUTPUT)!({ node: 1, line: 'hello', stream: 'stdout' });
    client.handlers.get(P.RUN_STATUS)!({ state: 'failed', exitCode: 3, message: 'run ended with exit code 3' });
    assert.ok(written.includes('[1] hello\r\n'), written.join(''));
    assert.deepEqual(closed, [3]);
    assert.equal(ext.runModel.run?.state, 'failed');
  });

  it('terminating the task stops the run', async () => {
    const { client } = await activated();
    const [task] = vscode.taskProviders.get('cumulus')!.provideTasks();
    const term = (await task.execution!.callback(task.definition)) as RunTerminal;
    vscode.inputAnswers.push('2', 'a.Main');
    await term.open();
    term.close();
    assert.deepEqual(client.requests.at(-1)?.params, { command: P.Commands.stop, arguments: [] });
  });
});

function window(node: number, objects: LiveWindow['objects']): LiveWindow {
  return { type: 'window', version: 2, node, sentMs: 1, windowMs: 1000, totals: { events: 1, remoteCalls: 0, writes: 0,
    bytes: 0, sequencerArrivals: 0, misses: 0 }, objects };
}

/** An object's figures as the profiler writes them. */
function fig(kind: string, name: string, operations: number, operationsPerSec: number | undefined, p99Us?: number,
  extra: Partial<ObjectFigures> = {}): ObjectFigures {
  const operation = ({ remote: 'calls', cloud: 'writes', tuple: 'operations', array: 'misses' } as Record<string, string>)[kind] ?? 'events';
  return { kind, name, operation, operations, operationsPerSec, p50Us: p99Us === undefined ? undefined : p99Us / 2, p99Us,
    bytes: 0, ...extra };
}

function figures(objects: ObjectFigures[], internal: ObjectFigures[] = []): LiveFigures {
  return { type: 'figures', version: 2, tMs: 1, nodes: [0, 1], sequencerMigrations: 3, objects, internal };
}

const REPORT: ProfileReport = {
  type: 'report', version: 2, runDir: '/r', startMs: 1, endMs: 2,
  remote: [{ object: 'counter', method: 'add', calls: 20, async: 10, failed: 0, p50Us: 3.1, p99Us: 40, requestBytes: 1280,
    replyBytes: 320, callers: [0, 1], targets: [0] }],
  clouds: [{ cloud: 'tally', writes: 500, restarts: 0, bytes: 21000, writers: [0, 1], methods: [
    { method: 'add', writes: 498, p50Us: 910.9, p99Us: 12202.1, bytes: 20916, writers: [0, 1] },
    { method: 'reset', writes: 2, p50Us: 100, p99Us: 200, bytes: 84, writers: [0] }] }],
  objects: [fig('cloud', 'tally', 500, 250, 12000.5, { bytes: 21000, restarts: 0 }),
    fig('tuple', 'row', 22, 11, 800, { bytes: 256 }), fig('remote', 'counter', 20, 10, 40, { bytes: 1600, failed: 0 }),
    fig('array', 'A', 9, 4.5, 4.1, { bytes: 64, hits: 3, invalidations: 1 })],
  internal: [fig('remote', 'cumulus.names', 4, 2, 90)],
};

describe('a run that fails to start', () => {
  beforeEach(() => vscode.reset());

  it('shows the launcher\'s reason in the run view, the status bar and a message; the output channel has it', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 2, mainClass: 'org.acme.Nope' });
    const out = client.handlers.get(P.NODE_OUTPUT)!;
    const status = client.handlers.get(P.RUN_STATUS)!;
    status({ state: 'starting', message: 'cumulus run --nodes 2 --profile-stream -cp /tmp/c org.acme.Nope' });
    status({ state: 'running', message: 'pid 42' });
    out({ node: -1, line: 'cumulus run: no class org.acme.Nope on the classpath /tmp/c', stream: 'stderr' });
    status({ state: 'failed', exitCode: 2, message: 'run ended with exit code 2' });

    assert.equal(ext.runModel.run?.state, 'failed');
    assert.equal(ext.runModel.run?.message, 'cumulus run: no class org.acme.Nope on the classpath /tmp/c');
    assert.match(ext.status.text, /failed \(exit 2\)/);
    assert.match(ext.status.tooltip as string, /no class org\.acme\.Nope/);
    assert.deepEqual(ext.runModel.nodeStates, ['not started', 'not started']);
    const tree = new RunTreeProvider(ext.runModel);
    const [runItem, node0] = tree.getChildren().map((i) => tree.getTreeItem(i));
    assert.match(String(runItem.label), /org\.acme\.Nope on 2 nodes: failed \(exit 2\)/);
    assert.equal(runItem.description, 'cumulus run: no class org.acme.Nope on the classpath /tmp/c');
    assert.match(String(node0.description), /not started · 0 lines/);
    const run = vscode.channels.get('Cumulus Run')!.lines;
    assert.ok(run.includes('[err] cumulus run: no class org.acme.Nope on the classpath /tmp/c'), run.join('\n'));
    assert.ok(run.some((l) => /^run failed \(exit 2\): cumulus run: no class/.test(l)), run.join('\n'));
    assert.ok(vscode.messages.some((m) => m.level === 'error' && /Cumulus run failed: cumulus run: no class/.test(m.text)));
  });

  it('names the restriction pre-check and its first finding', () => {
    const r = new RunModel();
    r.start('a.Main', 3);
    for (const line of ['cumulus: warning: classpath entry /x does not exist',
      '/p/src/main/java/a/Broken.java:6: error CUM101 [a.Broken] a class may not implement both Cloud.Root and Cloud.Node',
      "cumulus run: 1 error in the program's classes; nothing was started (fix them, see docs/rules, or pass --no-check)"]) {
      r.output({ node: -1, line, stream: 'stderr' });
    }
    r.status({ state: 'failed', exitCode: 1 });
    assert.match(r.run!.message!, /^cumulus run: 1 error in the program's classes; nothing was started .* — .*Broken\.java:6: error CUM101/);
    assert.equal(r.run!.details!.length, 3);
  });

  it('takes a node\'s failure or a stop from the launcher, and the server\'s message otherwise', () => {
    assert.equal(failureReason(['cumulus: run r-1 directory: /d', 'cumulus: node 1 exited with code 1; last output:',
      '  [1] Exception in thread "main" java.lang.IllegalStateException: boom']), 'cumulus: node 1 exited with code 1');
    assert.equal(failureReason(['cumulus: run r-1 directory: /d']), undefined);
    const r = new RunModel();
    r.start('a.Main', 2);
    r.output({ node: 0, line: 'working', stream: 'stdout' });
    r.output({ node: -1, line: 'cumulus: run stopped; stopping nodes 0,1', stream: 'stderr' });
    r.status({ state: 'failed', exitCode: 143, message: 'run ended with exit code 143' });
    assert.equal(r.run!.message, 'cumulus: run stopped; stopping nodes 0,1');
    assert.deepEqual(r.nodeStates, ['stopped', 'stopped']);
    assert.match(statusText(r), /stopped/);
  });

  it('shows a refused start (the server\'s response error) as failed with its message', async () => {
    const { ext, client } = await activated();
    client.sendRequest = async (method: string, params?: unknown) => {
      client.requests.push({ method, params });
      if (method === 'workspace/executeCommand') throw new Error('cannot run: the project does not compile (Main.java:3)');
      return true;
    };
    assert.equal(await ext.runOnCluster({ nodes: 2, mainClass: 'a.Main' }), false);
    assert.equal(ext.runModel.run?.state, 'failed');
    assert.match(ext.runModel.run?.message ?? '', /does not compile/);
    assert.match(ext.status.text, /failed/);
    assert.ok(vscode.channels.get('Cumulus Run')!.lines.some((l) => /run failed: cannot run: the project does not compile/.test(l)));
    assert.ok(vscode.messages.some((m) => m.level === 'error' && /does not compile/.test(m.text)));
  });
});

describe('Stop Run', () => {
  beforeEach(() => vscode.reset());

  /** The status bar, the run's row and the node rows, as a user reads them. */
  function shown(ext: Awaited<ReturnType<typeof activated>>['ext']) {
    const tree = new RunTreeProvider(ext.runModel);
    const [run, ...nodes] = tree.getChildren().map((i) => tree.getTreeItem(i));
    return { status: ext.status.text, run: String(run.label), nodes: nodes.map((n) => String(n.description)) };
  }

  it('a stopped run shows stopped in the status bar, the run view and every node row, and no error', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 2, mainClass: 'a.Main' });
    const out = client.handlers.get(P.NODE_OUTPUT)!;
    const status = client.handlers.get(P.RUN_STATUS)!;
    status({ state: 'running', message: 'pid 42' });
    out({ node: -1, line: 'cumulus: run r-1 directory: /d', stream: 'stderr' });
    out({ node: 0, line: 'working', stream: 'stdout' });
    await ext.stopRun();
    assert.deepEqual(client.requests.at(-1)?.params, { command: P.Commands.stop, arguments: [] });
    assert.match(shown(ext).status, /stopping/);
    assert.equal(ext.runModel.running, true, 'the Stop button stays until the run has ended');
    status({ state: 'failed', exitCode: 143, message: 'run ended with exit code 143', runDir: '/d' });
    const s = shown(ext);
    assert.match(s.status, /Cumulus: stopped$/);
    assert.match(s.run, /a\.Main on 2 nodes: stopped$/);
    assert.deepEqual(s.nodes, ['stopped · 1 lines', 'stopped · 0 lines']);
    assert.ok(!/failed|exit 143|not started/.test(JSON.stringify(s)), JSON.stringify(s));
    assert.equal(ext.runModel.running, false);
    assert.equal(ext.profile.running, false);
    assert.ok(!vscode.messages.some((m) => m.level === 'error'), 'a stop is no failure');
    assert.ok(vscode.channels.get('Cumulus Run')!.lines.some((l) => /^run stopped: stopped by Stop Run$/.test(l)));
  });

  it('stopped before any node started (while ./cumulus builds): stopped, not "not started"', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 3, mainClass: 'a.Main' });
    client.handlers.get(P.RUN_STATUS)!({ state: 'running', message: 'pid 42' });
    client.handlers.get(P.NODE_OUTPUT)!({ node: -1, line: 'cumulus: building (first run or sources changed)…', stream: 'stderr' });
    await ext.stopRun();
    client.handlers.get(P.RUN_STATUS)!({ state: 'failed', exitCode: 143 });
    assert.deepEqual(shown(ext).nodes, ['stopped · 0 lines', 'stopped · 0 lines', 'stopped · 0 lines']);
    assert.match(shown(ext).run, /stopped$/);
  });

  it('a stop that a node\'s own failure beat, or a Ctrl-C from elsewhere, still reads the same everywhere', () => {
    const r = new RunModel();
    r.start('a.Main', 2);
    r.output({ node: 0, line: 'x', stream: 'stdout' });
    r.status({ state: 'failed', exitCode: 130 });
    assert.equal(r.run!.state, 'stopped');
    assert.deepEqual(r.nodeStates, ['stopped', 'stopped']);
    const q = new RunModel();
    q.start('a.Main', 2);
    q.stopping();
    q.status({ state: 'finished', exitCode: 0 });
    assert.equal(q.run!.state, 'finished', 'a run that ended well before the stop took effect finished');
    assert.deepEqual(q.nodeStates, ['exited', 'exited']);
  });

  it('the task terminal says stopped too', async () => {
    const { client } = await activated();
    const [task] = vscode.taskProviders.get('cumulus')!.provideTasks();
    const term = (await task.execution!.callback(task.definition)) as RunTerminal;
    const written: string[] = [];
    term.onDidWrite((t) => written.push(t));
    vscode.inputAnswers.push('2', 'a.Main');
    await term.open();
    client.handlers.get(P.RUN_STATUS)!({ state: 'failed', exitCode: 143 });
    assert.match(written.at(-1)!, /^run stopped/);
  });
});

describe('small things', () => {
  beforeEach(() => vscode.reset());

  it('New Project proposes a folder beside the open project (or in home), never inside it', () => {
    assert.equal(newProjectDir('replicated', ['/work/app'], '/home/u', () => false), '/work/cumulus-replicated');
    assert.equal(newProjectDir('remote', [], '/home/u', () => false), '/home/u/cumulus-remote');
    const taken = new Set(['/work/cumulus-remote', '/work/cumulus-remote-2']);
    assert.equal(newProjectDir('remote', ['/work/app'], '/home/u', (p) => taken.has(p)), '/work/cumulus-remote-3');
  });

  it('profile lines that reach the output go to the profile view, not to an output channel', async () => {
    const { ext, client } = await activated();
    await ext.runOnCluster({ nodes: 1, mainClass: 'a.Main' });
    const w = figures([fig('cloud', 'best', 5, 5, 2)]);
    client.handlers.get(P.NODE_OUTPUT)!({ node: -1, line: `@cumulus-profile ${JSON.stringify(w)}`, stream: 'stdout' });
    client.handlers.get(P.NODE_OUTPUT)!({ node: -1, line: '@cumulus-profile {not json', stream: 'stdout' });
    client.handlers.get(P.NODE_OUTPUT)!({ node: -1, line: 'cumulus profile of /d: 1 recording', stream: 'stdout' });
    assert.equal(ext.profile.get('best')?.figures.operationsPerSec, 5);
    const run = vscode.channels.get('Cumulus Run')!.lines;
    assert.ok(!run.some((l) => l.includes('@cumulus-profile') || l.includes('"type"')), run.join('\n'));
    assert.ok(run.includes('cumulus profile of /d: 1 recording'));
  });

  it('the profile table fits a narrow side bar: secondary columns drop, the tooltip keeps every figure', () => {
    const html = profileHtml('n0nce');
    const script = /<script nonce="n0nce">([\s\S]*)<\/script>/.exec(html)![1];
    assert.doesNotThrow(() => new vm.Script(script), 'the webview script parses');
    assert.ok(html.includes(`@media (max-width:${WIDE_PX}px){.c2{display:none}}`));
    assert.ok(html.includes(`@media (max-width:${NARROW_PX}px){.c1{display:none}}`));
    assert.ok(NARROW_PX < WIDE_PX && WIDE_PX <= 600);
    const always = COLUMNS.filter((c) => !c.hide).map((c) => c.key);
    assert.deepEqual(always, ['object', 'operations', 'rate', 'p99'], 'the figures a user looks at first stay');
    for (const c of COLUMNS.filter((x) => x.hide)) assert.ok(html.includes(`<th data-k="${c.key}" class="c${c.hide}"`), c.key);
    // the script renders rows with the same classes and a tooltip that lists the dropped figures
    const m = new ProfileModel();
    m.accept(REPORT);
    const { tbody } = renderView(viewRows(m));
    const tr = tbody.children.find((x: any) => x.dataset.object === 'tally');
    assert.equal(tr.children.length, COLUMNS.length);
    assert.deepEqual(tr.children.map((td: any) => td.className), COLUMNS.map((c) => (c.hide ? `c${c.hide}` : '')));
    assert.equal(tr.title, 'tally (cloud)\n500 writes · 250 writes/s · p99 12.0 ms · p50 6.0 ms · 21,000 bytes\n'
      + "open the object's source");
  });
});

/** Runs the profile webview's script on a small fake DOM and posts it these rows; returns its elements. */
function renderView(rows: unknown[]) {
  const script = /<script nonce="n0nce">([\s\S]*)<\/script>/.exec(profileHtml('n0nce'))![1];
  const el = (tag: string): any => ({ tag, children: [], dataset: {}, style: {}, className: '', textContent: '',
    appendChild(c: any) { this.children.push(c); }, set innerHTML(_v: string) { this.children = []; } });
  const tbody = el('tbody');
  const byId = { empty: el('div'), chart: el('div'), status: el('div'), suggest: el('div'), places: el('div'),
    placesTitle: el('h4'), tb: tbody, tbi: el('tbody'), internalBox: el('details'), internalTitle: el('summary') };
  const posted: unknown[] = [];
  let onMessage: (e: { data: unknown }) => void = () => undefined;
  const doc = { createElement: el, querySelector: () => tbody, querySelectorAll: () => [], getElementById: (id: string) => (byId as Record<string, any>)[id] };
  vm.runInNewContext(script, { document: doc, acquireVsCodeApi: () => ({ postMessage: (m: unknown) => posted.push(m) }),
    window: { addEventListener: (_: string, f: any) => { onMessage = f; } } });
  onMessage({ data: { type: 'rows', live: false, runDir: '/d', rows } });
  return { tbody, posted, ...byId };
}

describe('profile', () => {
  it('shows the profiler\'s figures as they come: live ones, then the report\'s; the runtime\'s objects apart', () => {
    const m = new ProfileModel();
    m.accept(figures([fig('remote', 'thrice', 90, 90, 300), fig('remote', 'once', 30, 30, 280)],
      [fig('remote', 'cumulus.names', 2, 2, 50)]));
    assert.equal(m.live, true);
    assert.equal(m.sequencerMigrations, 3);
    assert.deepEqual(m.all().map((r) => [r.object, r.internal]), [['thrice', false], ['once', false], ['cumulus.names', true]]);
    m.accept(REPORT);
    m.accept(REPORT); // fed twice: still the run's figures
    assert.equal(m.live, false);
    assert.deepEqual(m.get('tally')?.figures, REPORT.objects![0], 'the record itself, nothing recomputed');
    assert.equal(m.get('thrice'), undefined, 'the report\'s objects replace the live ones');
    assert.deepEqual(m.all().map((r) => r.object), ['tally', 'row', 'counter', 'A', 'cumulus.names'], 'the profiler\'s order');
    assert.equal(m.get('cumulus.names')?.internal, true);
  });

  it('shows the figures of the report unchanged, internal objects in their own list, and charts one figure', () => {
    const m = new ProfileModel();
    m.accept({ ...REPORT, objects: [fig('remote', 'thrice', 3000, 150, 1200), fig('remote', 'once', 1000, 50, 1180)] });
    const rows = viewRows(m);
    const col = (k: string) => COLUMNS.findIndex((c) => c.key === k);
    assert.deepEqual(rows.map((r) => [r.object, r.cells[col('operations')], r.cells[col('rate')], r.cells[col('p99')]]),
      [['thrice', '3,000', '150', '1.2 ms'], ['once', '1,000', '50.0', '1.2 ms'], ['cumulus.names', '4', '2.0', '90 µs']],
      'three times the calls, three times the rate');
    const view = renderView(rows);
    assert.deepEqual(view.tbody.children.map((tr: any) => tr.dataset.object), ['thrice', 'once']);
    assert.deepEqual(view.tbi.children.map((tr: any) => tr.dataset.object), ['cumulus.names']);
    assert.equal(view.internalTitle.textContent, "Cumulus's own objects (1)");
    assert.deepEqual(view.chart.children.filter((_: any, i: number) => i % 2 === 0).map((l: any) => l.textContent),
      ['thrice 3,000 calls', 'once 1,000 calls'], 'the count alone, never a count plus a rate');
    assert.deepEqual(view.chart.children.filter((_: any, i: number) => i % 2 === 1).map((b: any) => b.style.width),
      ['100%', `${100 / 3}%`]);
    assert.equal(latencyText(4.12), '4.1 µs');
    assert.equal(latencyText(395890.6), '395.9 ms');
    assert.equal(latencyText(2_500_000), '2.50 s');
  });

  it('shows each remote object\'s location over time, calls by caller and the profiler\'s suggested move', () => {
    const m = new ProfileModel();
    const c3: Placement = { object: 'c3', node: 0, calls: 12, forwarded: 1, location: [{ node: 1, fromMs: 1000, toMs: 1500 },
      { node: 0, fromMs: 1500, toMs: 3000 }], moves: [
      { tMs: 1400, kind: 'IDLE', from: 1, to: 2, stateBytes: 0, pauseUs: 3, callsHeld: 0, reason: 'requested', outcome: 'stayed' },
      { tMs: 1500, kind: 'DELAYED', from: 1, to: 0, stateBytes: 64, pauseUs: 900, callsHeld: 1, reason: 'requested', outcome: 'moved' }],
      callers: [{ node: 1, calls: 2, forwarded: 0, sharePercent: 16.667 }, { node: 2, calls: 10, forwarded: 1, sharePercent: 83.333 }] };
    const suggestion: Suggestion = { object: 'c3', node: 0, toNode: 2, sharePercent: 83.333, callerCalls: 10, calls: 12,
      code: 'Remote.migrate(c3, 2, Migration.DELAYED)',
      message: 'c3 lives on node 0 but node 2 makes 83 % of its calls (10 of 12): Remote.migrate(c3, 2, Migration.DELAYED)' };
    m.accept({ ...REPORT, objects: [fig('remote', 'c3', 12, 6, 700, { moves: 1, node: 0 }), ...REPORT.objects!],
      placements: [c3, { object: 'counter', node: 0, calls: 20, forwarded: 0,
      location: [{ node: 0, fromMs: 1000, toMs: 3000 }], moves: [], callers: [{ node: 1, calls: 20, forwarded: 0, sharePercent: 100 }] }],
    suggestions: [suggestion] });

    const row = m.get('c3')!;
    assert.equal(row.figures.kind, 'remote');
    assert.equal(row.figures.node, 0);
    assert.equal(row.figures.moves, 1, 'as the profiler counted them');
    assert.deepEqual(row.location, [{ node: 1, percent: 25, fromSec: 0, toSec: 0.5 }, { node: 0, percent: 75, fromSec: 0.5, toSec: 2 }]);
    assert.equal(row.callers, 'node 1: 2 (17 %), node 2: 10 (83 %, 1 forwarded)');
    assert.deepEqual(row.suggestion, suggestion, 'carried as the profiler computed it');
    assert.deepEqual(m.suggestions(), [suggestion]);
    assert.equal(m.get('counter')?.suggestion, undefined);
    assert.equal(m.get('counter')?.figures.operations, 20);
    assert.equal(m.get('counter')?.callers, 'node 1: 20 (100 %)');
    assert.deepEqual(locationStrip({ ...c3, location: [] }), []);
    assert.equal(callersText({ ...c3, calls: 0, callers: [{ node: 3, calls: 0, forwarded: 2, sharePercent: 0 }] }), 'node 3: 0 (2 forwarded)');

    // the view: the suggestion on top (a click opens the object's source), a strip and the callers per remote object
    const view = renderView(viewRows(m));
    assert.deepEqual(view.suggest.children.map((d: any) => d.textContent), [suggestion.message]);
    view.suggest.children[0].onclick();
    assert.equal(JSON.stringify(view.posted.at(-1)), JSON.stringify({ type: 'open', object: 'c3' }));
    assert.equal(view.placesTitle.style.display, 'block');
    const [label, strip, callers] = view.places.children;
    assert.equal(label.textContent, 'c3 · on node 0 at the end · 1 move');
    assert.deepEqual(strip.children.map((s: any) => [s.style.width, s.textContent]), [['25%', 'node 1'], ['75%', 'node 0']]);
    assert.equal(callers.textContent, 'calls by caller: node 1: 2 (17 %), node 2: 10 (83 %, 1 forwarded)');
    assert.equal(view.places.children.length, 6, 'c3 and counter, three lines each');
    const cells = view.tbody.children.find((tr: any) => tr.dataset.object === 'c3').children.map((td: any) => td.textContent);
    assert.equal(cells[COLUMNS.findIndex((c) => c.key === 'moves')], '1');
  });

  it('says why the table is empty: no run yet, waiting for live figures, or a report without per-object rows', () => {
    const html = profileHtml('n0nce');
    for (const text of Object.values(EMPTY)) assert.ok(html.includes(JSON.stringify(text).slice(1, -1)), text);
    assert.ok(!/No profile yet[^"]*<\/div>/.test(html), 'the empty text is chosen by the script, not fixed in the page');
  });
});

describe('logic', () => {
  it('finds a JDK 25 like scripts/find-jdk.sh and prefers cumulus.javaHome', () => {
    const jdk = (home: string, v: string, javac = true) => [[`${home}/bin/java`, ''], ...(javac ? [[`${home}/bin/javac`, '']] : []),
      [`${home}/release`, `JAVA_VERSION="${v}"`]] as [string, string][];
    const files = new Map<string, string>([...jdk('/usr/lib/jvm/java-17', '17.0.15'), ...jdk('/usr/lib/jvm/jre-25', '25', false),
      ...jdk('/usr/lib/jvm/temurin-25', '25'), ...jdk('/Library/Java/JavaVirtualMachines/zulu-26.jdk/Contents/Home', '26')]);
    const dirs: Record<string, string[]> = { '/usr/lib/jvm': ['java-17', 'jre-25', 'temurin-25'],
      '/Library/Java/JavaVirtualMachines': ['zulu-26.jdk'] };
    const f: JdkFs = { exists: (p) => files.has(p), readdir: (p) => dirs[p] ?? [], realpath: (p) => p, readFile: (p) => files.get(p) };
    assert.deepEqual(findJdk(undefined, { PATH: '' }, f), { home: '/usr/lib/jvm/temurin-25', major: 25 }, 'a JRE (no javac) is skipped');
    assert.deepEqual(findJdk(undefined, { PATH: '', JAVA_HOME: '/usr/lib/jvm/java-17' }, { ...f, readdir: (p) => p === '/usr/lib/jvm' ? [] : dirs[p] ?? [] }),
      { home: '/Library/Java/JavaVirtualMachines/zulu-26.jdk/Contents/Home', major: 26 }, 'macOS JDKs, after JAVA_HOME (17: too old)');
    assert.match((findJdk('/usr/lib/jvm/java-17', {}, f) as { error: string }).error, /Java 17/);
    assert.deepEqual(findJdk(undefined, {}, { ...f, readdir: () => [] }), { error: NO_JDK_MESSAGE });
  });

  it('launches the server jar with its lib folder', () => {
    const l = serverLaunch('/jdk', checkoutServer('/repo'));
    assert.equal(l.command, '/jdk/bin/java');
    assert.ok(l.args.includes('/repo/lsp-server/target/cumulus-lsp.jar:/repo/lsp-server/target/lib/*'));
    assert.equal(l.args.at(-1), 'dev.cumulus.lsp.CumulusLanguageServer');
    assert.equal(findCumulusRoot(undefined, ['/repo/examples'], {}, (p) => p === '/repo/cumulus' || p === '/repo/templates'), '/repo');
  });

  it('reads the main class of a source and validates node counts', () => {
    assert.equal(mainClassOf('package a.b;\npublic class Run { public static void main(String[] x) {} }'), 'a.b.Run');
    assert.equal(mainClassOf('class X {}'), undefined);
    assert.equal(validateNodes('4'), undefined);
    assert.ok(validateNodes('0'));
    assert.ok(validateNodes('many'));
  });

  it('finds objects in source and keeps the status text', () => {
    assert.equal(findObjectLine('a\nb = cluster.remoteNew(X.class, Y.class, "matrix-worker-" + w, n);', 'matrix-worker-0'), 1);
    assert.equal(findObjectLine('x\ny\ncluster.replicated("best", M::new)', 'best'), 2);
    const r = new RunModel();
    assert.match(statusText(r), /Cumulus/);
    r.start('a.Main', 2);
    r.status({ state: 'failed', exitCode: 3 });
    assert.match(statusText(r), /failed \(exit 3\)/);
  });
});

describe('Attached clusters', () => {
  beforeEach(() => vscode.reset());

  const PS = JSON.stringify({
    cluster: 'demo',
    servers: [
      { server: 0, pid: 100, cpuLoad: 0.25, loadAverage: 1.5, heapUsedBytes: 20 * 1048576, heapMaxBytes: 512 * 1048576, threads: 30, uptimeMs: 60000, objects: 1 },
      { server: 1, pid: 101, cpuLoad: -1, loadAverage: -1, heapUsedBytes: 10 * 1048576, heapMaxBytes: 512 * 1048576, threads: 28, uptimeMs: 60000, objects: 1 },
    ],
    clients: [{ client: 2, name: 'alice', pid: 200, servers: 2, objects: 2 }],
    objects: [
      { id: 4294967312, name: 'counter', owner: 2, className: 'org.example.CounterImpl', server: 1, calls: 50, callsPerSecond: 12.5 },
      { id: 16, name: 'echo', owner: 2, className: 'Echo', server: 0, calls: 0, callsPerSecond: 0 },
    ],
  });
  const LIST = JSON.stringify([{ name: 'demo', state: 'serving', servers: 2 }, { name: 'old', state: 'stale', servers: 1 }]);

  function fakeCumulus(calls: string[][], answers: Record<string, string>) {
    return async (args: string[]) => {
      calls.push(args);
      const a = answers[args.join(' ')];
      if (a === undefined) throw new Error(`no such command: ${args.join(' ')}`);
      return a;
    };
  }

  it('reads the clusters and each serving one\'s ps into a tree of servers, clients and objects', async () => {
    const calls: string[][] = [];
    const model = new ClustersModel();
    await refreshClusters(fakeCumulus(calls, { 'cluster list --json': LIST, 'ps demo --json': PS }), model);
    assert.deepEqual(calls, [['cluster', 'list', '--json'], ['ps', 'demo', '--json']], 'a stale cluster is not asked');
    const tree = new ClustersTreeProvider(model);
    const roots = tree.getChildren();
    assert.deepEqual(roots.map((r) => (r as { name: string }).name), ['demo', 'old']);
    assert.equal(tree.getTreeItem(roots[0]).description, '2 servers · 1 clients · 2 objects');
    assert.equal(tree.getTreeItem(roots[1]).description, 'stale');
    assert.deepEqual(tree.getChildren(roots[1]), []);
    const groups = tree.getChildren(roots[0]);
    assert.deepEqual(groups.map((g) => tree.getTreeItem(g).label), ['Servers', 'Clients', 'Objects']);
    const servers = tree.getChildren(groups[0]);
    assert.equal(tree.getTreeItem(servers[0]).label, 'server 0');
    assert.equal(tree.getTreeItem(servers[0]).description, 'CPU 25% · load 1.50 · heap 20/512 MiB · 1 object');
    assert.equal(tree.getTreeItem(servers[1]).description, 'CPU - · load - · heap 10/512 MiB · 1 object');
    const clients = tree.getChildren(groups[1]);
    assert.equal(tree.getTreeItem(clients[0]).label, 'client 2 (alice)', 'with the name it attached as');
    assert.equal(tree.getTreeItem(clients[0]).description, 'pid 200 · 2 objects');
    assert.deepEqual(tree.getChildren(clients[0]).map((o) => tree.getTreeItem(o).label), ['counter', 'echo'],
      'a client holds its objects');
    const objects = tree.getChildren(groups[2]);
    assert.equal(tree.getTreeItem(objects[0]).description, 'CounterImpl · server 1 · client 2 · 12.5 calls/s');
    assert.match(String(tree.getTreeItem(objects[0]).tooltip), /org\.example\.CounterImpl #4294967312/);
  });

  it('shows why a cluster or the list cannot be read', async () => {
    const model = new ClustersModel();
    const tree = new ClustersTreeProvider(model);
    await refreshClusters(fakeCumulus([], { 'cluster list --json': LIST }), model);
    const demo = tree.getChildren()[0];
    assert.equal(tree.getTreeItem(tree.getChildren(demo)[0]).label, 'no such command: ps demo --json');
    await refreshClusters(fakeCumulus([], {}), model);
    assert.equal(tree.getTreeItem(tree.getChildren()[0]).label, 'no such command: cluster list --json');
    await refreshClusters(fakeCumulus([], { 'cluster list --json': '[]' }), model);
    assert.match(String(tree.getTreeItem(tree.getChildren()[0]).label), /No standing clusters/);
    assert.throws(() => parsePs('{"cluster": 1}'), /no cluster view/);
    assert.throws(() => parseClusterList('{}'), /no list of clusters/);
  });

  it('refreshes while the view is visible, one refresh at a time, and stops when it is hidden', async () => {
    const timers: (() => void)[] = [];
    let refreshes = 0;
    const poller = new ClustersPoller(async () => { refreshes++; }, 3000, (f) => { timers.push(f); return timers.length; },
      () => { timers.length = 0; });
    poller.start();
    poller.start(); // already started: no second refresh
    await poller.pending;
    assert.equal(refreshes, 1);
    assert.equal(timers.length, 1, 'the next refresh is scheduled once this one ended');
    timers.shift()!();
    await poller.pending;
    assert.equal(refreshes, 2);
    poller.stop();
    assert.equal(timers.length, 0, 'hidden: nothing scheduled');
    assert.equal(poller.started, false);
  });

  it('starts polling when the view is shown and stops when hidden', async () => {
    const asked: string[][] = [];
    const fakeRoot = project({ 'lsp-server/target/cumulus-lsp.jar': '', cumulus: '', '.cumulus': '' });
    vscode.config.javaHome = fakeJdk();
    vscode.config.serverPath = fakeRoot;
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(fakeRoot) }];
    const ext = await activate(context() as any, { startClient: async () => new FakeClient(),
      runCumulus: fakeCumulus(asked, { 'cluster list --json': LIST, 'ps demo --json': PS }) });
    const tv = vscode.treeViews.get('cumulus.clustersView')!;
    assert.ok(tv, 'the view is made');
    assert.equal(asked.length, 0, 'nothing asked while hidden');
    tv.visibility.fire({ visible: true });
    while (ext.clustersModel.clusters.length === 0) await new Promise((r) => setImmediate(r));
    assert.equal(ext.clustersModel.find('demo')?.view?.objects.length, 2);
    tv.visibility.fire({ visible: false });
  });

  it('formats figures that may be missing', () => {
    assert.equal(serverText({ server: 0, pid: 1, cpuLoad: 0, loadAverage: 0, heapUsedBytes: 0, heapMaxBytes: 0, threads: 0, uptimeMs: 0, objects: 0 }),
      'CPU 0% · load 0.00 · heap 0/0 MiB · 0 objects');
    assert.equal(serverText({ server: 1, pid: 2, cpuLoad: -1, loadAverage: -1, heapUsedBytes: -1, heapMaxBytes: -1, threads: -1, uptimeMs: -1, objects: 0, state: 'gone' }),
      'gone: its process ended; the other servers serve on');
    assert.equal(objectText({ id: 1, name: 'x', owner: 3, className: 'NoPackage', server: 2, calls: 1, callsPerSecond: 0 }),
      'NoPackage · server 2 · client 3 · 0.0 calls/s');
  });
});
