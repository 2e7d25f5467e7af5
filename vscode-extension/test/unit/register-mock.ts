// Makes require('vscode') return the mock (the real module exists only inside VS Code).
import Module = require('module');
import * as path from 'path';

const mockPath = path.join(__dirname, 'vscode-mock.js');
const m = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const original = m._resolveFilename;
m._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? mockPath : original.call(this, request, ...rest);
};
