// Publishing checks on package.json and the files the .vsix carries, as the registries make them: Open VSX's
// extension validator (`ovsx publish`) and the Marketplace's (`vsce package`/`publish`). Run without the network and
// without packaging, so that a manifest that a registry would refuse fails here first.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { WATCH_GLOB, BUILD_FILES, MARKER } from '../../src/workspace';

const extRoot = path.join(__dirname, '..', '..', '..');
const m = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));
const read = (f: string) => fs.readFileSync(path.join(extRoot, f), 'utf8');

// Open VSX: names are [\w\-\+\$~]+; display name ≤ 255, description ≤ 2048 characters; version is semver;
// license an SPDX id (and an OSI-approved one for open-vsx.org); URLs valid; keywords ≤ 5 for the Marketplace.
const NAME = /^[\w\-+$~]+$/;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[\da-z-]+(?:\.[\da-z-]+)*)?(?:\+[\da-z-]+(?:\.[\da-z-]+)*)?$/i;
const CATEGORIES = ['Azure', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps',
  'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Programming Languages', 'SCM Providers', 'Snippets',
  'Testing', 'Themes', 'Visualization', 'AI', 'Chat', 'Other'];

function httpsUrl(u: unknown, what: string): URL {
  assert.equal(typeof u, 'string', `${what} is a string`);
  const url = new URL((u as string).replace(/^git\+/, ''));
  assert.equal(url.protocol, 'https:', `${what} is https`);
  assert.ok(!/(^|\.)(example\.(com|org|net)|invalid|localhost|test)$/.test(url.hostname), `${what} is no placeholder: ${u}`);
  return url;
}

describe('publishable manifest', () => {
  it('names, version, texts and categories pass the registries\' validators', () => {
    for (const k of ['name', 'publisher']) assert.match(m[k], NAME, k);
    assert.match(m.version, SEMVER);
    assert.ok(m.displayName && m.displayName.length <= 255);
    assert.ok(m.description && m.description.length <= 2048);
    assert.ok(Array.isArray(m.categories) && m.categories.every((c: string) => CATEGORIES.includes(c)), m.categories);
    assert.ok(!m.keywords || m.keywords.length <= 5, 'at most 5 keywords');
    assert.match(m.engines.vscode, /^\^\d+\.\d+\.\d+$/);
    assert.equal(m.dependencies, undefined, 'no runtime dependencies: esbuild bundles them into dist/extension.js');
  });

  it('has a license, a real repository, issues and home page', () => {
    assert.equal(m.license, 'Apache-2.0');
    const license = read('LICENSE');
    assert.match(license, /Apache License\s+Version 2\.0, January 2004/);
    assert.equal(license, fs.readFileSync(path.join(extRoot, '..', 'LICENSE'), 'utf8'), 'the same LICENSE as the repository');
    httpsUrl(m.repository?.url, 'repository.url');
    httpsUrl(m.bugs?.url, 'bugs.url');
    httpsUrl(m.homepage, 'homepage');
  });

  it('has a PNG icon of at least 128×128 (the Marketplace refuses SVG icons)', () => {
    const png = fs.readFileSync(path.join(extRoot, m.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
    assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128, 'at least 128×128');
  });

  it('carries a user README, a CHANGELOG, and no images the registries would refuse', () => {
    const readme = read('README.md');
    assert.ok(readme.length > 1500 && /^# Cumulus/.test(readme));
    for (const s of ['## Settings', '## Commands', 'cumulus.javaErrors', 'Extension Pack for Java']) assert.ok(readme.includes(s), s);
    assert.ok(!/npm (ci|run)|e2e/.test(readme), 'no developer notes in the user README');
    for (const [, src] of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
      assert.ok(!/^http:/.test(src) && !/\.svg$/i.test(src), `image ${src}: no http and no SVG`);
      if (!/^https:/.test(src)) assert.ok(fs.existsSync(path.join(extRoot, src)), `image ${src} exists`);
    }
    assert.match(read('CHANGELOG.md'), new RegExp(`^## ${m.version.replace(/\./g, '\\.')}`, 'm'));
  });

  it('packs what the extension needs and nothing of its sources', () => {
    const ignore = read('.vscodeignore').split('\n');
    for (const f of ['!dist/extension.js', '!server/**', '!README.md', '!CHANGELOG.md', '!LICENSE', `!${m.icon}`]) {
      assert.ok(ignore.includes(f), `.vscodeignore keeps ${f}`);
    }
    assert.equal(ignore[0], '**', 'everything else is left out');
    assert.match(m.scripts['vscode:prepublish'], /bundle-server/, 'every vsce package bundles the server');
    assert.equal(m.scripts.package, 'vsce package', 'plain vsce package');
    // in this npm workspace `npm list` names the workspace root, which vsce would pack: no dependency detection (the
    // bundle has them all), set where plain `vsce package` reads its defaults
    assert.deepEqual(m.vsce, { dependencies: false });
  });

  it('activates only on a build file or marker (the server itself starts only where Cumulus is used)', () => {
    assert.ok(!m.activationEvents.includes('onLanguage:java') && !m.activationEvents.includes('*'));
    for (const e of m.activationEvents.filter((x: string) => x.startsWith('workspaceContains:'))) {
      const name = path.basename(e.slice('workspaceContains:'.length));
      assert.ok([...BUILD_FILES, MARKER].includes(name), e);
    }
    assert.ok(WATCH_GLOB.includes(MARKER));
  });
});

describe('ports of a run', () => {
  it('code-server and VS Code do not auto-forward the ports of nodes, launchers or the language server', () => {
    const attrs = m.contributes.configurationDefaults['remote.portsAttributes'];
    const keys = Object.keys(attrs);
    assert.equal(keys.length, 1);
    assert.equal(attrs[keys[0]].onAutoForward, 'ignore');
    // VS Code reads a key that is neither a port nor a range as a regular expression over the process's command line
    const re = new RegExp(keys[0]);
    const node = '/jdk/bin/java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -javaagent:/c/cumulus-agent.jar '
      + '-Dcumulus.run.id=261126-015455-3591 -Dcumulus.node.id=0 -agentlib:jdwp=transport=dt_socket,server=y ed.t.Main';
    assert.ok(re.test(node), 'a node');
    assert.ok(re.test('/jdk/bin/java -cp /c/cumulus-cli.jar:/c/lib/* dev.cumulus.cli.CumulusCli run --nodes 2 a.Main'), 'a launcher');
    assert.ok(re.test('/jdk/bin/java -cp /s/cumulus-lsp.jar dev.cumulus.lsp.CumulusLanguageServer'), 'the server');
    for (const other of ['node server.js --port 3000', '/jdk/bin/java -jar app.jar -Dcumulus=1', 'python -m http.server']) {
      assert.ok(!re.test(other), other);
    }
  });
});
