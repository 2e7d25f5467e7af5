// The profile channel's records: mirrors profiler/src/main/java/dev/cumulus/profiler/channel (LiveWindow, LiveObject,
// ProfileReport), documented in docs/design/PROFILER.md. The language server forwards each record of a run as a
// `cumulus/profile` notification: the nodes' one-second live windows, then the run's report (the same record
// `cumulus profile --json RUN_DIR` prints). Field names carry their units (…Ms, …Us, …PerSec, …Bytes).
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
}

export type ProfileRecord = LiveWindow | ProfileReport;

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
  'ProfileReport': fields<ProfileReport>()(['type', 'version', 'runDir', 'startMs', 'endMs', 'recordings', 'problems',
    'remote', 'placements', 'suggestions', 'clouds', 'sequencer', 'elements', 'arrays', 'other', 'nodes',
    'lifecycle']),
  'ProfileReport.RemoteMethod': fields<RemoteMethod>()(['object', 'method', 'calls', 'async', 'failed', 'p50Us',
    'p99Us', 'requestBytes', 'replyBytes', 'callers', 'targets']),
  'ProfileReport.Placement': fields<Placement>()(['object', 'node', 'calls', 'forwarded', 'location', 'moves',
    'callers']),
  'ProfileReport.Stay': fields<Stay>()(['node', 'fromMs', 'toMs']),
  'ProfileReport.Move': fields<Move>()(['tMs', 'kind', 'from', 'to', 'stateBytes', 'pauseUs', 'callsHeld', 'reason',
    'outcome']),
  'ProfileReport.Caller': fields<Caller>()(['node', 'calls', 'forwarded']),
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
};

/** The record types (`type`) and live object kinds (`kind`). */
export const RECORD_TYPES: readonly ProfileRecord['type'][] = ['window', 'report'];
export const LIVE_KINDS: readonly LiveObject['kind'][] = ['cloud', 'remote', 'tuple', 'array', 'other'];
