/*
 * Promela model of a node's polling role and doorbell hand-off (docs/design/THREADING.md, "Who wakes whom"), checked
 * with Debian's spin by DoorbellModelCheckTest. Threads: the node's main thread (DutyCycle + DoorbellIdle), NC
 * callers that poll for their replies (CallerPoll), a peer that sends one rung message, and one replier per caller
 * that answers it (RpcEngine: unrung while the caller's promise to poll runs, rung after it; an asynchronous call's
 * answer always rings). A synchronous call's replier may first send an awaited message: one the caller's node must
 * take before the call can be answered (a replicated write's SUBMIT to the static sequencer, which must stamp it
 * before the write is delivered), unrung under the same promise (RpcEngine.callerPolls); it waits until a poll took it.
 *
 * A caller is of a kind: REPLY (a synchronous call's reply: it takes the bell over only once late), OTHER (any other
 * wait: takes it over at once) or ASYNC (an asynchronous answer with more due: takes it over at once, asks the main
 * thread to nap, and keeps a napping main thread's bell as it stops, its answer in). A nap is a sleep with a bound
 * (NAP_NS): in the model it may end at any time, by itself; an unbounded sleep ends only when woken. A nap asked for
 * while the bell is kept is on the bell as it is (no announcement); waking leaves a kept bell kept. The mutant
 * KEEP_ANY_SLEEP keeps the bell whatever the main thread's sleep, and AWAITED_NEVER_RINGS sends the awaited message
 * unrung after the promise too: both must fail.
 *
 * A poll holds the role (compare-and-set) and takes the messages in the log at one instant; a message that arrives
 * later in the same poll is left for the next one. The main thread's unbounded sleep has no timeout here: in the
 * runtime it lasts at most 1 ms, so a message that only that timeout would find is a lost wake-up.
 *
 * Checked: once every sender and caller has finished, the main thread never sleeps unbounded with a message in the
 * log (Monitor); no deadlock (invalid end states).
 */
#ifndef NC
#define NC 2
#endif
#ifndef KIND0
#define KIND0 REPLY
#endif
#ifndef KIND1
#define KIND1 OTHER
#endif
#define MAX_LAST_LOOKS 2
#define AWAKE 0
#define SLEEPING 1
#define NAPPING 2          /* a sleep with a bound: the bell may be kept */
#define KEPT 3             /* a napping main thread's bell, taken over by a caller: no rings */
#define REPLY 0
#define OTHER 1
#define ASYNC 2

byte bell = AWAKE;
bit role = 0;
byte pending = 0;          /* messages in the log, not yet polled */
byte replyPending[NC];     /* a caller's reply in the log */
byte awaitedPending[NC];   /* the awaited message of a caller's call in the log */
bit replySent[NC];
bit deadlinePassed[NC];    /* the caller's clock read after its promise ended */
byte pollingCallers = 0;
bit mainAsleep = 0;
bit lookMissed = 0;
bit mainSleeps = 0;        /* the main thread waits in the futex */
bit napWanted = 0;         /* an ASYNC caller asked the main thread to nap */
bit mainNaps = 0;          /* the main thread's sleep (announced or in the futex) is a nap */
bit wake = 0;              /* a FUTEX_WAKE it has not woken from yet */
byte finished = 0;

/* one poll: got = whether it held the role. Taking the role and the log's messages is one step (a message that comes
 * between the two is simply taken); letting the role go is another: a message that comes in between is left. */
inline poll(got) {
    atomic {
        if
        :: role == 0 ->
            role = 1; got = 1;
            pending = 0;
            i = 0;
            do
            :: i < NC -> replyPending[i] = 0; awaitedPending[i] = 0; i++
            :: else -> break
            od;
            i = 0
        :: else -> got = 0
        fi
    }
    if
    :: got -> role = 0
    :: else -> skip
    fi
}

/* a sender's ring: after its message is in the log (a full fence), wake the node if its bell says it sleeps or naps */
inline ring() {
    atomic {
        if
        :: bell == SLEEPING || bell == NAPPING -> bell = AWAKE; wake = 1    /* the compare-and-set won: FUTEX_WAKE */
        :: else -> skip
        fi
    }
}

/* a caller takes the bell over: senders stop ringing; the sleeping main thread is not woken */
inline takeOver() {
    tookOver = 1;
    atomic {
        if
        :: bell == SLEEPING -> bell = AWAKE
        :: bell == NAPPING -> bell = KEPT
        :: else -> skip
        fi
    }
}

active proctype Peer() {
    pending++;
    ring();
    finished++
}

proctype Replier(byte c; byte kind) {
    if
    :: kind == REPLY ->    /* an awaited message first: unrung inside the promise, as the reply */
        awaitedPending[c] = 1;
        if
#ifdef AWAITED_NEVER_RINGS
        :: deadlinePassed[c] -> skip       /* the mutant: unrung after the promise too */
#else
        :: deadlinePassed[c] -> ring()
#endif
        :: else -> skip
        fi;
        awaitedPending[c] == 0    /* the call goes on once a poll of the caller's node took it */
    :: true -> skip
    fi;
    pending++;
    replyPending[c] = 1;
    replySent[c] = 1;
    if
    :: kind == ASYNC -> ring()          /* an asynchronous call promised no polling */
    :: kind != ASYNC && deadlinePassed[c] -> ring()    /* after the promise: ring */
    :: kind != ASYNC && !deadlinePassed[c] -> skip     /* inside it: the caller still polls, or looks once more */
    fi;
    finished++
}

proctype Caller(byte c; byte kind) {
    bit got, tookOver, handBack, look, done, forReply;
    byte i, n;
    forReply = (kind == REPLY);
    pollingCallers++;
    if
    :: kind == ASYNC -> napWanted = 1
    :: else -> skip
    fi;
    if
    :: !forReply -> takeOver()
    :: else -> skip
    fi;
    run Replier(c, kind);
    /* the brief wait: polls until done, or until its deadline (any time) */
    do
    :: poll(got)
    :: forReply && !tookOver -> takeOver()    /* late: take the bell over */
    :: replySent[c] && replyPending[c] == 0 -> break    /* done */
    :: deadlinePassed[c] = 1; break                        /* the clock passed the promise */
    od;
    done = replySent[c] && replyPending[c] == 0;
    pollingCallers--;
    if
    :: kind == ASYNC && !done -> napWanted = 0    /* it blocks next: no nap on its account */
    :: else -> skip
    fi;
    /* a wait that blocks next takes a kept bell back even from an awake main thread */
    handBack = tookOver && (mainAsleep || kind == ASYNC && !done && bell == KEPT);
    /* an asynchronous answer in: keep a napping main thread's bell (compare-and-set NAPPING -> KEPT) */
    if
    :: handBack && kind == ASYNC && done ->
        atomic {
            if
            :: bell == KEPT -> handBack = 0
            :: bell == NAPPING -> bell = KEPT; handBack = 0
#ifdef KEEP_ANY_SLEEP
            :: else -> handBack = 0          /* the mutant: kept whatever the sleep */
#else
            :: else -> skip
#endif
            fi
        }
    :: else -> skip
    fi;
    if
    :: handBack -> bell = SLEEPING
    :: else -> skip
    fi;
    /* the last looks */
    look = handBack || !done || lookMissed;
    n = 0;
    do
    :: look && n < MAX_LAST_LOOKS ->
        lookMissed = 0;
        poll(got);
        if
        :: !got ->
            lookMissed = 1;    /* for the thread holding the role; unless it let go meanwhile: then look again */
            if
            :: role == 0 -> n++
            :: else -> break
            fi
        :: else -> look = lookMissed; n++
        fi
    :: else -> break
    od;
    if
    :: lookMissed && n == MAX_LAST_LOOKS -> atomic { bell = AWAKE; wake = 1 }   /* out of looks: wake the main thread */
    :: else -> skip
    fi;
    finished++
}

active proctype Main() {
    bit got, sleep, whileCallersPoll;
    byte i, work, sleptOn;
    run Caller(0, KIND0);
#if NC > 1
    run Caller(1, KIND1);
#endif
end_main:
    do
    :: poll(got)    /* spinning and yielding: polls, found work or not */
    :: /* idle past its awake time, or callers poll: announce, look once more, sleep */
        whileCallersPoll = (pollingCallers > 0);
        mainNaps = napWanted;    /* a nap when an ASYNC caller asked since the last sleep */
        napWanted = 0;
        mainAsleep = 1;
        if
        :: mainNaps && bell == KEPT -> sleptOn = KEPT    /* a nap on the kept bell as it is: no announcement */
        :: else ->
            if
            :: mainNaps -> sleptOn = NAPPING
            :: else -> sleptOn = SLEEPING
            fi;
            bell = sleptOn
        fi;
        atomic {
            if
            :: role == 0 ->
                role = 1; got = 1;
                work = pending;
                pending = 0;
                i = 0;
                do
                :: i < NC ->
                    work = work + replyPending[i] + awaitedPending[i]; replyPending[i] = 0; awaitedPending[i] = 0; i++
                :: else -> break
                od;
                i = 0
            :: else -> got = 0
            fi
        }
        if
        :: got ->
            role = 0;
            if
            :: lookMissed -> lookMissed = 0; sleep = 0    /* a caller's look failed against this one */
            :: else -> sleep = (work == 0) && (!whileCallersPoll || pollingCallers > 0)
            fi;
            work = 0
        :: else ->
            lookMissed = 1;
            sleep = (pollingCallers > 0)
        fi;
        if
        :: sleep ->
            atomic {               /* FUTEX_WAIT: sleeps only while the bell still says what was announced */
                if
                :: bell == sleptOn -> mainSleeps = 1; wake = 0
                :: else -> skip
                fi
            };
            if
            :: mainSleeps ->
end_sleep:      if
                :: wake == 1       /* until a FUTEX_WAKE; an unbounded sleep has no timeout */
                :: mainNaps        /* a nap also ends by its bound */
                fi;
                atomic { wake = 0; mainSleeps = 0 }
            :: else -> skip
            fi
        :: else -> skip
        fi;
        mainAsleep = 0;
        atomic {                   /* awake: an announced bell becomes AWAKE (compare-and-set); a kept one stays */
            if
            :: bell == SLEEPING || bell == NAPPING -> bell = AWAKE
            :: else -> skip
            fi
        };
        mainNaps = 0;
        got = 0; sleep = 0; whileCallersPoll = 0
    od
}

active proctype Monitor() {
end_monitor:
    atomic {
        (finished == 1 + 2 * NC && mainSleeps && !mainNaps && wake == 0
            && (pending > 0 || replyPending[0] > 0 || replyPending[NC - 1] > 0 || awaitedPending[0] > 0
                || awaitedPending[NC - 1] > 0)) ->
        assert(false)    /* a message left for an unbounded sleep's timeout */
    }
}
