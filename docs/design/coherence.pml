/*
 * Promela model of the shared-array coherence protocol (docs/design/COHERENCE.md), checked with Debian's spin by
 * CoherenceModelCheckTest: 3 nodes, 2 partitions (partition p is homed on node p), each node makes OPS random
 * accesses, passes a barrier, then reads every partition.
 *
 * Checked: no two writable copies and no readable copy next to a writable one (Monitor); every read of a valid copy,
 * in particular every read after the barrier, returns the last value written (asserts in the readers); no deadlock
 * (every User process terminates; Home and Cache loops may only rest at their end labels).
 *
 * Reordering: grants travel on one channel per node and invalidations/forwards on another, and the node takes from
 * either, so an invalidation or forward may overtake the grant it revokes (the real runtime reorders any two
 * messages; between one home and one node for one partition, only a grant and a later control message can be in
 * flight together, so these are the reorderings that matter).
 */
#define N 3
#define P 2
#ifndef OPS
#define OPS 2
#endif

#define NONE 0
#define RD 1
#define WR 2

#define I 0
#define S 1
#define E 2

#define NOOWNER 255
#define IX(n, p) ((n) * P + (p))

mtype = { READREQ, WRITEREQ, FWDREPLY, INVACK, INV, FWD_R, FWD_W };

chan reqCh[P] = [N] of { mtype, byte };                /* request, from */
chan respCh[P] = [N] of { mtype, byte, byte };         /* INVACK/FWDREPLY, from, value */
chan grantCh[N] = [P] of { byte, byte, byte, byte, bit }; /* partition, state, seq, value, hasData */
chan ctrlCh[N] = [P] of { mtype, byte, byte };         /* INV/FWD_R/FWD_W, partition, seq */

/* cache side, per node and partition */
byte cstate[N * P];
byte cval[N * P];
byte inst[N * P];
byte pend[N * P];
byte want[N * P];
byte wval[N * P];
bit deferred[N * P];
mtype dmsg[N * P];
byte dseq[N * P];

/* home side, per partition */
bit dexcl[P];
byte owner[P];
byte sharers[P];
byte gseq[N * P];
byte nseq[P];
byte mem[P];
bit busy[P];
byte curFrom[P];
byte curAcc[P];
byte acks[P];

/* ghosts */
byte latest[P];
byte wcount;
byte arrived;

#define GRANT(to, st, val, hd) \
    nseq[p]++; gseq[IX(to, p)] = nseq[p]; grantCh[to]!p, st, nseq[p], val, hd

proctype Home(byte p) {
    byte from, v, k, others;
    bit hasCopy;
    mtype t;
end:
    do
    :: atomic { !busy[p] && nempty(reqCh[p]) -> reqCh[p]?t, from;
            if
            :: t == READREQ && !dexcl[p] ->
                sharers[p] = sharers[p] | (1 << from);
                GRANT(from, S, mem[p], 1)
            :: t == READREQ && dexcl[p] ->
                assert(owner[p] != from);
                busy[p] = 1; curFrom[p] = from; curAcc[p] = RD;
                ctrlCh[owner[p]]!FWD_R, p, gseq[IX(owner[p], p)]
            :: t == WRITEREQ && !dexcl[p] ->
                others = sharers[p] & ~(1 << from);
                if
                :: others == 0 ->
                    hasCopy = (sharers[p] >> from) & 1;
                    dexcl[p] = 1; owner[p] = from; sharers[p] = 0;
                    GRANT(from, E, mem[p], !hasCopy)
                :: else ->
                    busy[p] = 1; curFrom[p] = from; curAcc[p] = WR; acks[p] = 0;
                    k = 0;
                    do
                    :: k < N ->
                        if
                        :: (others >> k) & 1 -> ctrlCh[k]!INV, p, gseq[IX(k, p)]; acks[p]++
                        :: else -> skip
                        fi;
                        k++
                    :: else -> break
                    od
                fi
            :: t == WRITEREQ && dexcl[p] ->
                assert(owner[p] != from);
                busy[p] = 1; curFrom[p] = from; curAcc[p] = WR;
                ctrlCh[owner[p]]!FWD_W, p, gseq[IX(owner[p], p)]
            fi
        }
    :: respCh[p]?t, from, v ->
        atomic {
            assert(busy[p]);
            if
            :: t == INVACK ->
                assert((sharers[p] >> from) & 1);
                sharers[p] = sharers[p] & ~(1 << from);
                acks[p]--;
                if
                :: acks[p] == 0 ->
                    hasCopy = (sharers[p] >> curFrom[p]) & 1;
                    dexcl[p] = 1; owner[p] = curFrom[p]; sharers[p] = 0; busy[p] = 0;
                    GRANT(curFrom[p], E, mem[p], !hasCopy)
                :: else -> skip
                fi
            :: t == FWDREPLY ->
                assert(from == owner[p]);
                mem[p] = v;
                if
                :: curAcc[p] == RD ->
                    dexcl[p] = 0; sharers[p] = (1 << owner[p]) | (1 << curFrom[p]); owner[p] = NOOWNER;
                    GRANT(curFrom[p], S, mem[p], 1)
                :: else ->
                    owner[p] = curFrom[p];
                    GRANT(curFrom[p], E, mem[p], 1)
                fi;
                busy[p] = 0
            fi
        }
    od
}

#define HANDLE(t, n, p) \
    if \
    :: t == INV -> cstate[IX(n, p)] = I; respCh[p]!INVACK, n, 0 \
    :: t == FWD_R -> assert(cstate[IX(n, p)] == E); cstate[IX(n, p)] = S; respCh[p]!FWDREPLY, n, cval[IX(n, p)] \
    :: t == FWD_W -> assert(cstate[IX(n, p)] == E); cstate[IX(n, p)] = I; respCh[p]!FWDREPLY, n, cval[IX(n, p)] \
    fi

proctype Cache(byte n) {
    byte p, st, seq, v;
    bit hd;
    mtype t;
end:
    do
    :: grantCh[n]?p, st, seq, v, hd ->
        atomic {
            cstate[IX(n, p)] = st;
            if
            :: hd -> cval[IX(n, p)] = v
            :: else -> skip
            fi;
            inst[IX(n, p)] = seq;
            pend[IX(n, p)] = NONE;
            if
            :: want[IX(n, p)] == RD ->
                assert(cval[IX(n, p)] == latest[p]);
                want[IX(n, p)] = NONE
            :: want[IX(n, p)] == WR && st == E ->
                cval[IX(n, p)] = wval[IX(n, p)]; latest[p] = wval[IX(n, p)];
                want[IX(n, p)] = NONE
            :: want[IX(n, p)] == WR && st != E ->
                pend[IX(n, p)] = WR; reqCh[p]!WRITEREQ, n
            :: want[IX(n, p)] == NONE -> skip
            fi;
            if
            :: deferred[IX(n, p)] && dseq[IX(n, p)] <= inst[IX(n, p)] ->
                deferred[IX(n, p)] = 0;
                t = dmsg[IX(n, p)];
                HANDLE(t, n, p)
            :: else -> skip
            fi
        }
    :: ctrlCh[n]?t, p, seq ->
        atomic {
            if
            :: seq > inst[IX(n, p)] ->
                assert(!deferred[IX(n, p)]);
                deferred[IX(n, p)] = 1; dmsg[IX(n, p)] = t; dseq[IX(n, p)] = seq
            :: else -> HANDLE(t, n, p)
            fi
        }
    od
}

/* one read by node n of partition p: a hit checks the copy at once; a miss waits for its grant */
#define READ(n, p) \
    atomic { \
        if \
        :: cstate[IX(n, p)] != I -> assert(cval[IX(n, p)] == latest[p]) \
        :: else -> want[IX(n, p)] = RD; pend[IX(n, p)] = RD; reqCh[p]!READREQ, n \
        fi \
    }; \
    (want[IX(n, p)] == NONE)

#define WRITE(n, p) \
    atomic { \
        wcount++; \
        if \
        :: cstate[IX(n, p)] == E -> cval[IX(n, p)] = wcount; latest[p] = wcount \
        :: else -> want[IX(n, p)] = WR; wval[IX(n, p)] = wcount; pend[IX(n, p)] = WR; reqCh[p]!WRITEREQ, n \
        fi \
    }; \
    (want[IX(n, p)] == NONE)

proctype User(byte n) {
    byte k = 0;
    byte p;
    do
    :: k < OPS ->
        if
        :: p = 0
        :: p = 1
        fi;
        if
        :: READ(n, p)
        :: WRITE(n, p)
        fi;
        k++
    :: else -> break
    od;
    /* the barrier: every write above happens before every read below */
    arrived++;
    (arrived == N);
    READ(n, 0);
    READ(n, 1)
}

#define EXCL(p) ((cstate[IX(0, p)] == E) + (cstate[IX(1, p)] == E) + (cstate[IX(2, p)] == E))
#define VALID(p) ((cstate[IX(0, p)] != I) + (cstate[IX(1, p)] != I) + (cstate[IX(2, p)] != I))

/* safety: never two writable copies, never a readable copy next to the writable one */
active proctype Monitor() {
end:
    atomic {
        (EXCL(0) > 1 || EXCL(1) > 1 || (EXCL(0) == 1 && VALID(0) > 1) || (EXCL(1) == 1 && VALID(1) > 1)) ->
        assert(false)
    }
}

init {
    byte p = 0;
    atomic {
        do
        :: p < P ->
            /* the home's own copy starts as the only sharer of the zero-filled backing copy (grant 0) */
            sharers[p] = 1 << p; owner[p] = NOOWNER; cstate[IX(p, p)] = S;
            run Home(p);
            p++
        :: else -> break
        od;
        run Cache(0); run Cache(1); run Cache(2);
        run User(0); run User(1); run User(2)
    }
}
