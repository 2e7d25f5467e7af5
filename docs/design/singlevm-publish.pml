/*
 * Promela model of "Homed where first published" (docs/design/SINGLEVM.md), checked with Debian's spin by
 * SingleVmModelCheckTest: an object X that node 1 made and that first leaves node 1 in a write-back to node 0 gets
 * node 0 as its home; the write-back carries it whole; once node 0 acknowledged, node 1's original becomes its copy,
 * with a twin of the values sent.
 *
 * Node 0 homes the monitor P and three fields under it: S (the pool's slot: 0 null, 1 X), F (a flag node 1 sets) and
 * R (a flag node 0 sets); after the publication also X (one field x). Node 1 runs two threads sharing its cache:
 *   - T locks P, stores X into S and unlocks: the flush that publishes X;
 *   - U took X for its own original in an access site before (its "known" local): it writes x = 2 through that site
 *     (at any time relative to T's publication: after it, a plain store with no dirty bit), locks P, sets F and
 *     unlocks; then locks P again and, if R is set, reads x through the same site.
 * Node 0's thread V locks P once S holds X and F is set, reads x, writes x = 3 into its master and sets R.
 *
 * Checked:
 *   - the stale site's write is not lost: V, which sees F (set after it), reads x == 2 in node 0's master;
 *   - the publisher sees its new home's writes after an acquire: U, which sees R, reads x == 3;
 *   - no deadlock (every thread ends; the home may only rest at its end label).
 *
 * NO_TWIN is the mutant whose flushes do not compare the copy with its twin (only dirty bits are sent); KEEP_KNOWN
 * the mutant whose weaving does not forget the "known" locals at a monitorenter. The checker must find the assertion
 * each violates (V reads x == 0; U reads its own x == 2).
 */
#define NOBODY 255
#define V_ID 2             /* V's id as a holder of P; T is 0 and U is 1 */

mtype = { LOCK, UNLOCK, WB, CREATE, FETCH, GRANT, ACK, DATA };

/* the fields, as WB and FETCH name them */
#define FS 0
#define FF 1
#define FR 2
#define FX 3

chan toHome = [8] of { mtype, byte, byte, byte };  /* from node 1 (in order): type, thread, field, value */
chan reply[2] = [4] of { mtype, byte };            /* to T (0) and U (1): GRANT / ACK / DATA value */

/* node 0: the monitor and the masters */
byte owner = NOBODY;
bit queued[2];
byte sm, fm, rm, xm;
bit xexists;

/* node 1: its cache of S and F (only written there), its epoch, and X: original, then copy */
byte slotv, flagv;
bit sdirty, fdirty;
byte ep = 1;
byte xv;                  /* x as node 1 holds it */
bit xcopy;                /* 0: node 1's original; 1: its copy (homed on node 0) */
bit xnamed;               /* published (named for node 0) */
byte xtwin;               /* the value node 0 last got from or gave to node 1 */
bit xdirty;
byte xfill;               /* the epoch whose fetch filled the copy */
bit flushing;             /* node 1's flushes run one at a time */

byte finished;

proctype Home() {
    mtype t;
    byte th, f, v;
end:
    do
    :: atomic {
        toHome?t, th, f, v;
        if
        :: t == CREATE -> xm = v; xexists = 1; reply[th]!ACK, 0
        :: t == WB ->
            if
            :: f == FS -> sm = v
            :: f == FF -> fm = v
            :: f == FX -> assert(xexists); xm = v
            fi;
            reply[th]!ACK, 0
        :: t == FETCH ->
            if
            :: f == FR -> reply[th]!DATA, rm
            :: f == FX -> assert(xexists); reply[th]!DATA, xm
            fi
        :: t == LOCK && owner == NOBODY -> owner = th; reply[th]!GRANT, 0
        :: t == LOCK && owner != NOBODY -> queued[th] = 1
        :: t == UNLOCK ->
            assert(owner == th);
            if
            :: queued[0] -> queued[0] = 0; owner = 0; reply[0]!GRANT, 0
            :: queued[1] -> queued[1] = 0; owner = 1; reply[1]!GRANT, 0
            :: !queued[0] && !queued[1] -> owner = NOBODY
            fi
        fi
    }
    od
}

/* acquire: the grant, then a new epoch, which becomes the thread's own (Epochs.advance) */
#define LOCK_P(me) \
    toHome!LOCK, me, 0, 0; \
    reply[me]??GRANT, d; \
    atomic { ep++; myep = ep }

/*
 * updateMainMemory on node 1: compare the copy with its twin (a difference is a write of a site that took X for an
 * original), send every dirty entry, publish X whole if S refers to it and it never left node 1, wait for every
 * acknowledgement; then X is node 1's copy, filled as of the epoch before the send, its twin the values sent.
 */
#ifdef NO_TWIN
#define TWIN_DIFF skip
#define TWIN_CLEAN 1
#else
#define TWIN_DIFF if :: xcopy && !xdirty && xv != xtwin -> xdirty = 1 :: else -> skip fi
#define TWIN_CLEAN (xv == xtwin)
#endif
#define FLUSH(me) \
    atomic { !flushing -> flushing = 1 }; \
    acks = 0; pub = 0; wx = 0; \
    atomic { \
        TWIN_DIFF; \
        if \
        :: sdirty -> \
            if \
            :: slotv == 1 && !xcopy && !xnamed -> xnamed = 1; pub = 1; pe = ep; sent = xv; \
                toHome!CREATE, me, FX, sent; acks++ \
            :: else -> skip \
            fi; \
            toHome!WB, me, FS, slotv; sdirty = 0; acks++ \
        :: else -> skip \
        fi; \
        if \
        :: fdirty -> toHome!WB, me, FF, flagv; fdirty = 0; acks++ \
        :: else -> skip \
        fi; \
        if \
        :: xcopy && xdirty -> sx = xv; toHome!WB, me, FX, sx; xdirty = 0; wx = 1; acks++ \
        :: else -> skip \
        fi \
    }; \
    do \
    :: acks > 0 -> reply[me]??ACK, d; acks-- \
    :: else -> break \
    od; \
    atomic { \
        if \
        :: pub -> xtwin = sent; xcopy = 1; xfill = pe \
        :: else -> skip \
        fi; \
        if \
        :: wx -> xtwin = sx \
        :: else -> skip \
        fi; \
        flushing = 0 \
    }

#define UNLOCK_P(me) FLUSH(me); toHome!UNLOCK, me, 0, 0

/* a read of x through U's access site: a remembered original is read as it is; a copy is checked (and filled) */
#define READ_X(me, r) \
    if \
    :: known -> skip \
    :: !known && !xcopy -> known = 1 \
    :: !known && xcopy && (xfill >= myep || xdirty) -> skip \
    :: !known && xcopy && xfill < myep && !xdirty -> \
        fe = ep; \
        toHome!FETCH, me, FX, 0; \
        reply[me]??DATA, d; \
        atomic { \
            if \
            :: !xdirty && TWIN_CLEAN -> xv = d; xtwin = d \
            :: else -> skip \
            fi; \
            if \
            :: xfill < fe -> xfill = fe \
            :: else -> skip \
            fi \
        } \
    fi; \
    r = xv

/* a write of x through U's access site: plain for a remembered original, dirty for a copy */
#define WRITE_X(v) \
    atomic { \
        if \
        :: known -> xv = v \
        :: !known && !xcopy -> xv = v; known = 1 \
        :: !known && xcopy -> xv = v; xdirty = 1 \
        fi \
    }

/* the weaving forgets every "known" local at a monitorenter (and after every call) */
#ifdef KEEP_KNOWN
#define FORGET skip
#else
#define FORGET known = 0
#endif

proctype T() {
    byte d, acks, pub, pe, sent, sx, myep;
    bit wx;
    myep = ep;
    LOCK_P(0);
    slotv = 1; sdirty = 1;           /* pool.slot = X */
    UNLOCK_P(0);
    finished++
}

proctype U() {
    byte d, acks, pub, pe, sent, sx, myep, fe, r, x;
    bit wx;
    bit known = 1;                /* its site met X while X was node 1's original */
    myep = ep;
    WRITE_X(2);
    LOCK_P(1); FORGET;
    flagv = 1; fdirty = 1;           /* F = 1 */
    UNLOCK_P(1);
    LOCK_P(1); FORGET;
    toHome!FETCH, 1, FR, 0;       /* R, read after the acquire (fetched) */
    reply[1]??DATA, r;
    if
    :: r == 1 -> READ_X(1, x); assert(x == 3)
    :: else -> skip
    fi;
    UNLOCK_P(1);
    finished++
}

proctype V() {
    atomic { owner == NOBODY && sm == 1 && fm == 1 -> owner = V_ID };
    assert(xexists && xm == 2);   /* U's write, made before it set F, reached X's new home */
    xm = 3;
    rm = 1;
    atomic {
        if
        :: queued[0] -> queued[0] = 0; owner = 0; reply[0]!GRANT, 0
        :: queued[1] -> queued[1] = 0; owner = 1; reply[1]!GRANT, 0
        :: !queued[0] && !queued[1] -> owner = NOBODY
        fi
    };
    finished++
}

init {
    atomic {
        run Home();
        run T();
        run U();
        run V()
    }
    (finished == 3)
}
