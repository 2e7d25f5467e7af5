// The profile channel's records on both sides: profileSchema.ts (whose FIELDS lists the compiler checks against its
// interfaces) against the Java records, as pinned by the profiler's ChannelSchemaTest in profile-channel.json. A field
// renamed on one side only fails this test or that one.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { FIELDS, LIVE_KINDS, RECORD_TYPES, VERSION } from '../../src/profileSchema';

const repo = path.join(__dirname, '..', '..', '..', '..');
const file = path.join(repo, 'profiler', 'src', 'test', 'resources', 'profile-channel.json');
const java = JSON.parse(fs.readFileSync(file, 'utf8')) as {
  fields: Record<string, string[]>;
  samples: { window: { version: number; objects: { kind: string }[] }; report: { type: string } };
};

describe('profile channel schema', () => {
  it('names the same records as the Java side, each with the same fields in the same order', () => {
    assert.deepEqual(Object.keys(FIELDS).sort(), Object.keys(java.fields).sort(), 'records');
    for (const [record, fields] of Object.entries(java.fields)) {
      assert.deepEqual([...FIELDS[record]], fields, `fields of ${record}`);
    }
  });

  it('knows every record type and live object kind of the Java samples, and their version', () => {
    assert.deepEqual([...RECORD_TYPES].sort(), Object.keys(java.samples).sort());
    assert.deepEqual(java.samples.window.objects.map((o) => o.kind), [...LIVE_KINDS]);
    assert.equal(java.samples.window.version, VERSION);
  });

  it('finds every field of the samples in FIELDS (nothing written that the editor does not know)', () => {
    const live = java.samples.window as unknown as Record<string, unknown>;
    for (const k of Object.keys(live)) assert.ok(FIELDS['LiveWindow'].includes(k), k);
    for (const o of java.samples.window.objects) {
      const record = `LiveObject.${o.kind[0].toUpperCase()}${o.kind.slice(1)}`;
      assert.deepEqual(Object.keys(o), [...FIELDS[record]], record);
    }
    assert.deepEqual(Object.keys(java.samples.report), [...FIELDS['ProfileReport']]);
  });
});
