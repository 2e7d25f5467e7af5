/*
 * Promela model of the core of the single-VM shared heap (docs/design/SINGLEVM.md), checked with Debian's spin by
 * SingleVmModelCheckTest: lock, invalidate, write-back with acknowledgements, fetch, and a volatile.
 *
 * Three nodes. Node 0 is the home of object D (fields d0, d1) and object E (field e); node 1 is the home of the
 * monitor M and of the volatile flag V. One thread on node 1 (Reader) and one on node 2 (Writer) each run ROUNDS
 * critical sections under M that read d0 and d1 through their node's cache and increment both (each cached D by a
 * racy read first); then the Writer writes e = 1 (plain, into its cache) and V = 1 (volatile), and the Reader
 * caches e, reads V, and reads e again.
 *
 * Checked:
 *   - message passing through a monitor: under M a thread sees d0 == d1 == the number of critical sections
 *     completed before it (no stale cached copy survives the lock, no write of the previous holder is still on its
 *     way when it releases);
 *   - message passing through a volatile: a reader that sees V == 1 then sees e == 1;
 *   - no write is lost at unlock: once both threads are done, the home holds d0 == d1 == 2 * ROUNDS;
 *   - no deadlock (both threads end; homes may only rest at their end labels).
 *
 * Messages from one node to one node stay in order (a channel per sender); messages from different senders to a home
 * are taken in any order, so a write-back and a later fetch by another node may reach the data's home either way
 * round unless an acknowledgement orders them. Each node's cache is modelled per field: value, valid, dirty; an
 * invalidation clears valid but keeps dirty fields (the runtime's epochs do the same). One thread per node: the
 * sharing of a node's cache by its threads is argued in SINGLEVM.md, not modelled.
 *
 * EARLY_RELEASE (singlevm-early-release.pml) is the mutant that releases the monitor, and writes the volatile,
 * without waiting for the write-backs' acknowledgements; the checker must find the assertion it violates.
 */
#define NODES 3
#define F 3            /* 0: D.d0, 1: D.d1 (object D), 2: E.e (object E); all homed on node 0 */
#ifndef ROUNDS
#define ROUNDS 1
#endif
#define NOBODY 255
#define IX(n, f) ((n) * F + (f))
#define OBJ(f) ((f) / 2)   /* fields 0, 1: object 0 (D); field 2: object 1 (E) */

mtype = { FETCH, WB, LOCK, UNLOCK, VGET, VPUT, DATA, WBACK, GRANT, VAL, VACK };

chan home0[NODES] = [3] of { mtype, byte, byte };  /* per sender: FETCH object / WB field value */
chan home1[NODES] = [2] of { mtype, byte };        /* per sender: LOCK / UNLOCK / VGET / VPUT value */
chan reply[NODES] = [4] of { mtype, byte, byte };  /* DATA v0 v1 / WBACK / GRANT / VAL v / VACK */

byte mem[F];              /* master copies, on node 0 */
byte vflag;               /* volatile V, on node 1 */
byte owner = NOBODY;      /* monitor M, on node 1 */
byte queued = NOBODY;

byte cval[NODES * F];     /* node caches */
bit cvalid[NODES * F];
bit cdirty[NODES * F];

byte done;                /* ghost: critical sections completed (their writes acknowledged) */
byte finished;            /* ghost: threads that ended */

proctype HomeOfData() {
    byte from, a, b;
    mtype t;
end:
    do
    :: atomic {
        if
        :: home0[1]?t, a, b -> from = 1
        :: home0[2]?t, a, b -> from = 2
        fi;
        if
        :: t == FETCH && a == 0 -> reply[from]!DATA, mem[0], mem[1]
        :: t == FETCH && a == 1 -> reply[from]!DATA, mem[2], 0
        :: t == WB -> mem[a] = b; reply[from]!WBACK, a, 0
        fi
    }
    od
}

proctype HomeOfMonitor() {
    byte from, v;
    mtype t;
end:
    do
    :: atomic {
        if
        :: home1[1]?t, v -> from = 1
        :: home1[2]?t, v -> from = 2
        fi;
        if
        :: t == LOCK && owner == NOBODY -> owner = from; reply[from]!GRANT, 0, 0
        :: t == LOCK && owner != NOBODY -> assert(owner != from && queued == NOBODY); queued = from
        :: t == UNLOCK ->
            assert(owner == from);
            owner = queued;
            queued = NOBODY;
            if
            :: owner != NOBODY -> reply[owner]!GRANT, 0, 0
            :: else -> skip
            fi
        :: t == VGET -> reply[from]!VAL, vflag, 0
        :: t == VPUT -> vflag = v; reply[from]!VACK, 0, 0
        fi
    }
    od
}

/* loadIntoCache: fetch the object holding field f; fill its fields that are not dirty */
#define FETCH_OBJECT(n, f) \
    home0[n]!FETCH, OBJ(f), 0; \
    reply[n]??DATA, a, b; \
    atomic { \
        if \
        :: OBJ(f) == 0 -> \
            if :: !cdirty[IX(n, 0)] -> cval[IX(n, 0)] = a :: else -> skip fi; cvalid[IX(n, 0)] = 1; \
            if :: !cdirty[IX(n, 1)] -> cval[IX(n, 1)] = b :: else -> skip fi; cvalid[IX(n, 1)] = 1 \
        :: else -> \
            if :: !cdirty[IX(n, 2)] -> cval[IX(n, 2)] = a :: else -> skip fi; cvalid[IX(n, 2)] = 1 \
        fi \
    }

#define READ(n, f, r) \
    if \
    :: cvalid[IX(n, f)] || cdirty[IX(n, f)] -> skip \
    :: else -> FETCH_OBJECT(n, f) \
    fi; \
    r = cval[IX(n, f)]

#define WRITE(n, f, v) atomic { cval[IX(n, f)] = v; cdirty[IX(n, f)] = 1 }

/* invalidateCache: a new epoch; dirty fields stay */
#define INVALIDATE(n) atomic { cvalid[IX(n, 0)] = 0; cvalid[IX(n, 1)] = 0; cvalid[IX(n, 2)] = 0 }

/* updateMainMemory: every dirty field to its home; wait for every acknowledgement (not in the mutant) */
#ifdef EARLY_RELEASE
#define AWAIT_ACKS(n) skip
#else
#define AWAIT_ACKS(n) \
    do \
    :: acks > 0 -> reply[n]??WBACK, a, b; acks-- \
    :: else -> break \
    od
#endif
#define FLUSH(n) \
    f = 0; \
    do \
    :: f < F && cdirty[IX(n, f)] -> home0[n]!WB, f, cval[IX(n, f)]; cdirty[IX(n, f)] = 0; cvalid[IX(n, f)] = 1; \
        acks++; f++ \
    :: f < F && !cdirty[IX(n, f)] -> f++ \
    :: f == F -> break \
    od; \
    AWAIT_ACKS(n)

#define LOCK_M(n) home1[n]!LOCK, 0; reply[n]??GRANT, a, b; INVALIDATE(n)
#define UNLOCK_M(n) FLUSH(n); done++; home1[n]!UNLOCK, 0
#define PUT_VOLATILE(n, v) FLUSH(n); home1[n]!VPUT, v; reply[n]??VACK, a, b
#define GET_VOLATILE(n, r) home1[n]!VGET, 0; reply[n]??VAL, r, b; INVALIDATE(n)

/* one critical section: under M the thread must see every earlier section's writes */
#define CRITICAL_SECTION(n) \
    LOCK_M(n); \
    READ(n, 0, r0); \
    READ(n, 1, r1); \
    assert(r0 == done && r1 == done); \
    WRITE(n, 0, r0 + 1); \
    WRITE(n, 1, r1 + 1); \
    UNLOCK_M(n)

proctype Writer(byte n) {
    byte a, b, f, acks, r0, r1, k;
    READ(n, 0, r0);         /* D cached before the lock: a racy read, which the lock must not trust */
    k = 0;
    do
    :: k < ROUNDS -> CRITICAL_SECTION(n); k++
    :: else -> break
    od;
    WRITE(n, 2, 1);
    PUT_VOLATILE(n, 1);
    finished++
}

proctype Reader(byte n) {
    byte a, b, f, acks, r0, r1, k, e, v;
    READ(n, 0, r0);         /* D cached before the lock: a racy read, which the lock must not trust */
    k = 0;
    do
    :: k < ROUNDS -> CRITICAL_SECTION(n); k++
    :: else -> break
    od;
    READ(n, 2, e);          /* e cached before the flag is read: the volatile read must not trust it */
    GET_VOLATILE(n, v);
    if
    :: v == 1 -> READ(n, 2, e); assert(e == 1)
    :: else -> skip
    fi;
    finished++
}

init {
    atomic {
        run HomeOfData();
        run HomeOfMonitor();
        run Reader(1);
        run Writer(2)
    }
    (finished == 2);
    assert(mem[0] == 2 * ROUNDS && mem[1] == 2 * ROUNDS)   /* no write lost at unlock */
}
