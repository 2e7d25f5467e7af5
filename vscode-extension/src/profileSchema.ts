// The profile channel's records: mirrors profiler/src/main/java/dev/cumulus/profiler/channel (LiveWindow, LiveObject,
// LiveFigures, ObjectFigures, ProfileReport), documented in docs/design/PROFILER.md. The language server forwards a
// run's records as `cumulus/profile` notifications: the cluster's live figures (after every node's one-second window),
// then the run's report (the same record `cumulus profile --json RUN_DIR` prints). Field names carry their units
// (…Ms, …Us, …PerSec, …Bytes). The figures are the profiler's: the editor shows them and never recomputes them.
// FIELDS lists every record's fields at run time; the compiler checks each list against its interface, and
// test/unit/schema.test.ts checks the lists against the Java side's profiler/src/test/resources/profile-channel.json.

/** Bumped by the Java side when a field is renamed or removed. */
export const VERSION = 2;

export interface WindowTotals {
  events: number;
  remoteCalls: number;
  writes: number;
  bytes: number;
  sequencerArrivals: number;
  misses: number;
}

export interface LiveCloud {
  kind: 'cloud';
  name: string;
  className?: string;
  writes: number;
  writesPerSec: number;
  p50WriteUs: number;
  p99WriteUs: number;
  bytes: number;
  migrations: number;
  restarts?: number;
}

export interface LiveRemote {
  kind: 'remote';
  name: string;
  calls: number;
  callsPerSec: number;
  p50Us: number;
  p99Us: number;
  failed: number;
  bytes: number;
}

export interface LiveTuple {
  kind: 'tuple';
  name: string;
  remoteOperations: number;
  moves: number;
  observes: number;
  blockedMs: number;
  remoteP99Us: number;
  bytes: number;
}

export interface LiveArray {
  kind: 'array';
  name: string;
  misses: number;
  missesPerSec: number;
  p99MissUs: number;
  invalidations: number;
  hits: number;
  bytes: number;
}

export interface LiveOther {
  kind: 'other';
  name: string;
  count: number;
}

export type LiveObject = LiveCloud | LiveRemote | LiveTuple | LiveArray | LiveOther;

/** One node's events over about a second. */
export interface LiveWindow {
  type: 'window';
  version: number;
  node: number;
  sentMs: number;
  recvMs?: number;
  windowMs: number;
  firstEventMs?: number;
  lastEventMs?: number;
  totals: WindowTotals;
  objects: LiveObject[];
  more?: number;
}

/**
 * One object's figures, made by the profiler (one definition each, docs/design/PROFILER.md): live, the newest second of
 * every node summed (p50/p99 the highest node's); after the run, the whole run. `operations` counts `operation`
 * (calls of a remote object, writes of a cloud, operations of a tuple element, misses of an array, events).
 */
export interface ObjectFigures {
  kind: 'cloud' | 'remote' | 'tuple' | 'array' | 'other' | string;
  name: string;
  className?: string;
  operation: string;
  operations: number;
  /** Absent after a run shorter than a second (no extrapolated rate). */
  operationsPerSec?: number;
  p50Us?: number;
  p99Us?: number;
  bytes: number;
  failed?: number;
  hits?: number;
  invalidations?: number;
  restarts?: number;
  /** Remote objects after the run: migrations that moved it, and where it lived at the end (-1 unknown). */
  moves?: number;
  node?: number;
}

/** The cluster's newest figures: every node's newest window merged by the launcher, after each window. */
export interface LiveFigures {
  type: 'figures';
  version: number;
  tMs: number;
  lastEventMs?: number;
  nodes: number[];
  sequencerMigrations: number;
  /** The program's objects, busiest first. */
  objects: ObjectFigures[];
  /** The runtime's own objects (cumulus.*, its array and tuple-space services), listed apart. */
  internal: ObjectFigures[];
}

export interface RemoteMethod {
  object: string;
  method: string;
  calls: number;
  async: number;
  failed: number;
  p50Us: number;
  p99Us: number;
  requestBytes: number;
  replyBytes: number;
  callers: number[];
  targets: number[];
  /**
   * The object is the runtime's own (`cumulus.names`, the factory, a capability service), not the program's (absent
   * in reports of older versions).
   */
  internal?: boolean;
}

/** An interval during which a remote object lived on one node (ms since the epoch). */
export interface Stay {
  node: number;
  fromMs: number;
  toMs: number;
}

/** One migration of a remote object, as the node it left recorded it (outcome "moved", or why it stayed). */
export interface Move {
  tMs: number;
  kind: 'IDLE' | 'DELAYED' | 'SAFE_POINT' | string;
  from: number;
  to: number;
  stateBytes: number;
  pauseUs: number;
  callsHeld: number;
  reason: string;
  outcome: 'moved' | string;
}

/** Calls one node made to one remote object; forwarded: calls that reached a forwarding address first. */
export interface Caller {
  node: number;
  calls: number;
  forwarded: number;
  /** This node's share of the object's calls that ran, percent (the profiler's). */
  sharePercent: number;
}

/** One remote object: where it lived from the run's start to its end, its moves, and its calls by caller node. */
export interface Placement {
  object: string;
  /** Where it lived at the run's end, -1 when unknown. */
  node: number;
  calls: number;
  forwarded: number;
  location: Stay[];
  moves: Move[];
  callers: Caller[];
}

/**
 * A move the profiler suggests (it alone decides, with its threshold): node toNode makes sharePercent of the object's
 * calls over the run while the object lives on node.
 */
export interface Suggestion {
  object: string;
  node: number;
  toNode: number;
  sharePercent: number;
  callerCalls: number;
  calls: number;
  /** The call that makes the move: Remote.migrate(name, toNode, Migration.DELAYED). */
  code: string;
  message: string;
}

export interface CloudMethod {
  method: string;
  writes: number;
  p50Us: number;
  p99Us: number;
  bytes: number;
  writers: number[];
}

export interface ReportCloud {
  cloud: string;
  writes: number;
  restarts: number;
  bytes: number;
  writers: number[];
  methods: CloudMethod[];
}

export interface Migration {
  tMs: number;
  from: number;
  to: number;
  nextSeq: number;
}

export interface Sequencer {
  migrations: number;
  arrivals: Record<string, number>;
  timeline: Migration[];
}

export interface Element {
  element: string;
  moves: number;
  observes: number;
  remoteOperations: number;
  blockedMs: number;
  remoteP99Us: number;
  bytes: number;
  errors: number;
  maxDistance: number;
  homes: number[];
  callers: number[];
}

export interface ArrayNode {
  node: number;
  hits: number;
  misses: number;
  invalidations: number;
  bytes: number;
}

export interface Partition {
  partition: number;
  node: number;
  misses: number;
  invalidations: number;
  ownershipTransfers: number;
  bytes: number;
}

export interface ReportArray {
  array: string;
  hits: number;
  misses: number;
  invalidations: number;
  bytes: number;
  ownershipTransfers: number;
  p50MissUs: number;
  p99MissUs: number;
  nodes: ArrayNode[];
  partitions: Partition[];
}

export interface Other {
  event: string;
  count: number;
  totalMs: number;
  maxUs: number;
  bytes: number;
  nodes: number[];
}

export interface NodeTotals {
  node: number;
  events: number;
  remoteCalls: number;
  failedCalls: number;
  writes: number;
  sequencerArrivals: number;
  tupleOperations: number;
  arrayMisses: number;
  bytes: number;
}

export interface Lifecycle {
  tMs: number;
  node: number;
  phase: string;
  subject: number;
  detail: string;
}

/**
 * One field of one class in a single-VM run's shared heap (`cumulus run --single-vm`): the class is the object's own
 * (binary name; an array type's descriptor such as `[J`, whose elements are field `[]`).
 */
export interface HeapField {
  className: string;
  field: string;
  /** Reads that found the node's copy stale and fetched the object (an array's block) from its home. */
  fetches: number;
  fetchMs: number;
  fetchedEntries: number;
  /** Releases that sent this field to its home. */
  writeBacks: number;
  writeBackMs: number;
  nodes: number[];
  homes: number[];
}

/** Waits for monitors homed on another node, on the objects of one class. */
export interface HeapLock {
  className: string;
  waits: number;
  waitMs: number;
  longestUs: number;
  nodes: number[];
}

/** One node's cache invalidations over the run. */
export interface HeapInvalidations {
  node: number;
  invalidations: number;
}

/** The single-VM mode's shared heap over a run: which fields move between the nodes. */
export interface SingleVmHeap {
  fields: HeapField[];
  locks: HeapLock[];
  invalidations: HeapInvalidations[];
}

/** The profile of a finished run. Lists may be absent in a hand-written record; the profiler always writes them. */
export interface ProfileReport {
  type: 'report';
  version: number;
  runDir: string;
  startMs: number;
  endMs: number;
  recordings?: string[];
  problems?: string[];
  remote?: RemoteMethod[];
  placements?: Placement[];
  suggestions?: Suggestion[];
  clouds?: ReportCloud[];
  sequencer?: Sequencer;
  elements?: Element[];
  arrays?: ReportArray[];
  other?: Other[];
  nodes?: NodeTotals[];
  lifecycle?: Lifecycle[];
  /** The program's objects' figures over the whole run, busiest first. */
  objects?: ObjectFigures[];
  /** The runtime's own objects' figures, apart. */
  internal?: ObjectFigures[];
  /** A single-VM run's shared heap; absent when the run recorded none. */
  singleVm?: SingleVmHeap;
}

export type ProfileRecord = LiveWindow | LiveFigures | ProfileReport;

/** The keys of T, listed once each: a list that misses or invents a key does not compile. */
type Exhaustive<T, L extends readonly (keyof T)[]> = Exclude<keyof T, L[number]> extends never ? L : never;
function fields<T>() {
  return <const L extends readonly (keyof T)[]>(list: Exhaustive<T, L>): readonly string[] => list as readonly string[];
}

/** Every record's fields in the Java records' order, named as the Java side names the records. */
export const FIELDS: Record<string, readonly string[]> = {
  'LiveWindow': fields<LiveWindow>()(['type', 'version', 'node', 'sentMs', 'recvMs', 'windowMs', 'firstEventMs',
    'lastEventMs', 'totals', 'objects', 'more']),
  'LiveWindow.Totals': fields<WindowTotals>()(['events', 'remoteCalls', 'writes', 'bytes', 'sequencerArrivals',
    'misses']),
  'LiveObject.Cloud': fields<LiveCloud>()(['kind', 'name', 'className', 'writes', 'writesPerSec', 'p50WriteUs',
    'p99WriteUs', 'bytes', 'migrations', 'restarts']),
  'LiveObject.Remote': fields<LiveRemote>()(['kind', 'name', 'calls', 'callsPerSec', 'p50Us', 'p99Us', 'failed',
    'bytes']),
  'LiveObject.Tuple': fields<LiveTuple>()(['kind', 'name', 'remoteOperations', 'moves', 'observes', 'blockedMs',
    'remoteP99Us', 'bytes']),
  'LiveObject.Array': fields<LiveArray>()(['kind', 'name', 'misses', 'missesPerSec', 'p99MissUs', 'invalidations',
    'hits', 'bytes']),
  'LiveObject.Other': fields<LiveOther>()(['kind', 'name', 'count']),
  'LiveFigures': fields<LiveFigures>()(['type', 'version', 'tMs', 'lastEventMs', 'nodes', 'sequencerMigrations',
    'objects', 'internal']),
  'ObjectFigures': fields<ObjectFigures>()(['kind', 'name', 'className', 'operation', 'operations', 'operationsPerSec',
    'p50Us', 'p99Us', 'bytes', 'failed', 'hits', 'invalidations', 'restarts', 'moves', 'node']),
  'ProfileReport': fields<ProfileReport>()(['type', 'version', 'runDir', 'startMs', 'endMs', 'recordings', 'problems',
    'remote', 'placements', 'suggestions', 'clouds', 'sequencer', 'elements', 'arrays', 'other', 'nodes',
    'lifecycle', 'objects', 'internal', 'singleVm']),
  'ProfileReport.RemoteMethod': fields<RemoteMethod>()(['object', 'method', 'calls', 'async', 'failed', 'p50Us',
    'p99Us', 'requestBytes', 'replyBytes', 'callers', 'targets', 'internal']),
  'ProfileReport.Placement': fields<Placement>()(['object', 'node', 'calls', 'forwarded', 'location', 'moves',
    'callers']),
  'ProfileReport.Stay': fields<Stay>()(['node', 'fromMs', 'toMs']),
  'ProfileReport.Move': fields<Move>()(['tMs', 'kind', 'from', 'to', 'stateBytes', 'pauseUs', 'callsHeld', 'reason',
    'outcome']),
  'ProfileReport.Caller': fields<Caller>()(['node', 'calls', 'forwarded', 'sharePercent']),
  'ProfileReport.Suggestion': fields<Suggestion>()(['object', 'node', 'toNode', 'sharePercent', 'callerCalls', 'calls',
    'code', 'message']),
  'ProfileReport.Cloud': fields<ReportCloud>()(['cloud', 'writes', 'restarts', 'bytes', 'writers', 'methods']),
  'ProfileReport.CloudMethod': fields<CloudMethod>()(['method', 'writes', 'p50Us', 'p99Us', 'bytes', 'writers']),
  'ProfileReport.Sequencer': fields<Sequencer>()(['migrations', 'arrivals', 'timeline']),
  'ProfileReport.Migration': fields<Migration>()(['tMs', 'from', 'to', 'nextSeq']),
  'ProfileReport.Element': fields<Element>()(['element', 'moves', 'observes', 'remoteOperations', 'blockedMs',
    'remoteP99Us', 'bytes', 'errors', 'maxDistance', 'homes', 'callers']),
  'ProfileReport.Array': fields<ReportArray>()(['array', 'hits', 'misses', 'invalidations', 'bytes',
    'ownershipTransfers', 'p50MissUs', 'p99MissUs', 'nodes', 'partitions']),
  'ProfileReport.ArrayNode': fields<ArrayNode>()(['node', 'hits', 'misses', 'invalidations', 'bytes']),
  'ProfileReport.Partition': fields<Partition>()(['partition', 'node', 'misses', 'invalidations',
    'ownershipTransfers', 'bytes']),
  'ProfileReport.Other': fields<Other>()(['event', 'count', 'totalMs', 'maxUs', 'bytes', 'nodes']),
  'ProfileReport.Node': fields<NodeTotals>()(['node', 'events', 'remoteCalls', 'failedCalls', 'writes',
    'sequencerArrivals', 'tupleOperations', 'arrayMisses', 'bytes']),
  'ProfileReport.Lifecycle': fields<Lifecycle>()(['tMs', 'node', 'phase', 'subject', 'detail']),
  'ProfileReport.SingleVm': fields<SingleVmHeap>()(['fields', 'locks', 'invalidations']),
  'ProfileReport.HeapField': fields<HeapField>()(['className', 'field', 'fetches', 'fetchMs', 'fetchedEntries',
    'writeBacks', 'writeBackMs', 'nodes', 'homes']),
  'ProfileReport.HeapLock': fields<HeapLock>()(['className', 'waits', 'waitMs', 'longestUs', 'nodes']),
  'ProfileReport.HeapInvalidations': fields<HeapInvalidations>()(['node', 'invalidations']),
};

/** The record types (`type`) and live object kinds (`kind`). */
export const RECORD_TYPES: readonly ProfileRecord['type'][] = ['window', 'figures', 'report'];
export const LIVE_KINDS: readonly LiveObject['kind'][] = ['cloud', 'remote', 'tuple', 'array', 'other'];
