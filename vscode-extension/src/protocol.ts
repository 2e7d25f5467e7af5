// Mirrors the language server's custom protocol: lsp-server/src/main/java/dev/cumulus/lsp/CumulusProtocol.java
// (documented in lsp-server/PROTOCOL.md). Custom methods are cumulus/..., never $/...; commands go over the standard
// workspace/executeCommand. Keep this file and the Java interface in step.

/** Notification, server to client: one output line of a run. node is -1 for the launcher itself. */
export const NODE_OUTPUT = 'cumulus/nodeOutput';
export interface NodeOutput {
  node: number;
  line: string;
  stream: 'stdout' | 'stderr' | string;
}

/** Notification, server to client: a run's state changed. exitCode and runDir are set at the end. */
export const RUN_STATUS = 'cumulus/runStatus';
export type RunState = 'starting' | 'running' | 'finished' | 'failed';
export interface RunStatus {
  state: RunState | string;
  exitCode?: number | null;
  runDir?: string | null;
  message?: string | null;
}

/**
 * Notification, server to client: a node of a run started with debug nodes listens for a Java debugger (JDWP) at
 * host:port and stays suspended until one attaches.
 */
export const DEBUG_READY = 'cumulus/debugReady';
export interface DebugReady {
  node: number;
  host: string;
  port: number;
}

/**
 * Notification, server to client: one record of the run's profile channel, exactly as the profiler wrote it: the
 * cluster's live figures (after each node's one-second window), then the run's report at its end. The records are in
 * profileSchema.ts.
 */
export const PROFILE = 'cumulus/profile';
export type { ProfileRecord } from './profileSchema';
import type { ObjectFigures } from './profileSchema';

/**
 * What `cumulus.showProfile` answers: the figures an object's code lens shows, as the profiler made them (live: the
 * cluster's newest second; after the run: the report's).
 */
export type LensFigures = ObjectFigures;

/** Notification, client to server: forget all figures (a new run starts). */
export const PROFILE_RESET = 'cumulus/profileReset';

/** workspace/executeCommand commands the server registers. */
export const Commands = {
  /** [nodes, mainClass, debugNodes?] → true; starts `cumulus run --nodes N --profile-stream [--debug debugNodes]`. */
  run: 'cumulus.run',
  /** [] → boolean; stops the current run. */
  stop: 'cumulus.stop',
  /** [template: string, dir: string, package?: string] → the CLI's output text. */
  newProject: 'cumulus.newProject',
  /** [object: string] → LensFigures | null: the object's newest figures. */
  showProfile: 'cumulus.showProfile',
} as const;

export type RunArgs = [nodes: number, mainClass: string, debugNodes?: string];
export type NewProjectArgs = [template: string, dir: string, pkg?: string];

/**
 * initialize's initializationOptions (all optional; CumulusProtocol.Options on the server). The extension sends
 * javaErrors, singleVm, classpathCacheDir and, when it knows a Cumulus installation, cumulusCommand.
 */
export interface InitializationOptions {
  /** The Cumulus API jars (path-separated string or array), e.g. the output of `cumulus classpath`. */
  cumulusClasspath?: string | string[];
  /** Path of the `cumulus` command; "none" disables runs and new projects. */
  cumulusCommand?: string;
  /** URL prefix of the rule pages. */
  rulesDocsBase?: string;
  /** Delay after the last edit before analysing (default 200). */
  debounceMs?: number;
  /** Publish Java compile errors (default true); false when another Java language server reports them. */
  javaErrors?: boolean;
  /** The workspace is a single-VM program (`cumulus run --single-vm`): also check rules CUM201-CUM207. */
  singleVm?: boolean;
  /** Folder for the cached Maven classpath (the extension's storage; never the user's project). */
  classpathCacheDir?: string;
}

/** Notification, client to server: the standard workspace/didChangeConfiguration, with the settings below. */
export const DID_CHANGE_CONFIGURATION = 'workspace/didChangeConfiguration';
export interface ServerSettings {
  cumulus: { javaErrors?: boolean; singleVm?: boolean };
}
