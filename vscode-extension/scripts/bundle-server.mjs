// Copies the built language server into server/ so that the .vsix carries it (run by `vscode:prepublish`, i.e. by
// every `vsce package`): lsp-server/target/cumulus-lsp.jar, its libraries (lsp-server/target/lib/*.jar) and the rule
// pages (docs/rules/*.md, which the server links its diagnostics to when they sit next to it). Fails, saying what to
// run, when the server is not built.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(ext, '..');
const target = path.join(repo, 'lsp-server', 'target');
const jar = path.join(target, 'cumulus-lsp.jar');
const main = 'dev/cumulus/lsp/CumulusLanguageServer.class';
if (!fs.existsSync(jar) || !fs.readFileSync(jar).includes(main)) {
  console.error(`bundle-server: ${jar} is missing or not a built server (no ${main}); run ./build at the repository root first`);
  process.exit(1);
}
const out = path.join(ext, 'server');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'lib'), { recursive: true });
fs.copyFileSync(jar, path.join(out, 'cumulus-lsp.jar'));
const libs = fs.readdirSync(path.join(target, 'lib')).filter((n) => n.endsWith('.jar')).sort();
for (const n of libs) fs.copyFileSync(path.join(target, 'lib', n), path.join(out, 'lib', n));
const rules = path.join(repo, 'docs', 'rules');
fs.mkdirSync(path.join(out, 'docs', 'rules'), { recursive: true });
for (const n of fs.readdirSync(rules).filter((x) => x.endsWith('.md'))) {
  fs.copyFileSync(path.join(rules, n), path.join(out, 'docs', 'rules', n));
}
console.log(`bundle-server: server/ holds cumulus-lsp.jar and ${libs.length} libraries`);
