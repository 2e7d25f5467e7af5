/*
 * Promela model of a node's polling role and doorbell hand-off (docs/design/THREADING.md, "Who wakes whom"), checked
 * with Debian's spin by DoorbellModelCheckTest. Threads: the node's main thread (DutyCycle + DoorbellIdle), NC
 * callers that poll for their replies (CallerPoll), a peer that sends one rung message, and one replier per caller
 * that answers it (RpcEngine: unrung while the caller's promise to poll runs, rung after it). A caller that sleeps
 * (Scheduler.pollThenSleep: a replicated write's shipper waiting for its write's delivery) sleeps on the bell after its
 * deadline, between looks of its own; a poll of another thread that takes its message wakes the sleepers. The futex
 * waits and wakes carry bit sets: a ring that finds a waiter's announcement, and a poll's wake of the sleepers, wake
 * the sleeping callers only, not the main thread asleep behind them.
 *
 * A poll holds the role (compare-and-set) and takes the messages in the log at one instant; a message that arrives
 * later in the same poll is left for the next one. The main thread's sleep on the bell has no timeout here: in the
 * runtime it lasts at most 1 ms, so a message that only that timeout would find is a lost wake-up.
 *
 * Checked: once every sender and caller has finished, the main thread never sleeps with a message in the log, and a
 * sleeping caller whose message was taken is woken (Monitor); no deadlock (invalid end states).
 */
#ifndef NC
#define NC 2
#endif
#define MAX_LAST_LOOKS 2
#define AWAKE 0
#define SLEEPING 1
#define WAITER_SLEEPING 2    /* a caller sleeps on the bell (pollThenSleep) */

byte bell = AWAKE;
bit role = 0;
byte pending = 0;          /* messages in the log, not yet polled */
byte replyPending[NC];     /* a caller's reply in the log */
bit replySent[NC];
bit deadlinePassed[NC];    /* the caller's clock read after its promise ended */
byte pollingCallers = 0;
bit mainAsleep = 0;
bit lookMissed = 0;
bit mainSleeps = 0;        /* the main thread waits in the futex */
bit wake = 0;              /* a FUTEX_WAKE it has not woken from yet */
bit taken[NC];             /* a caller's message was taken by a poll: what it waits for is done */
bit callerSleeps[NC];      /* a caller waits in the futex (pollThenSleep) */
bit callerWake[NC];
byte bellSleepers = 0;
byte finished = 0;

/* FUTEX_WAKE: every thread waiting in the futex wakes */
inline futexWake() {
    atomic { wake = 1; callerWake[0] = 1; callerWake[NC - 1] = 1 }    /* NC <= 2 */
}

/* FUTEX_WAKE_BITSET for the waiters' bit: the sleeping callers wake, the main thread sleeps on */
inline waiterWake() {
    atomic { callerWake[0] = 1; callerWake[NC - 1] = 1 }
}

/* one poll: got = whether it held the role. Taking the role and the log's messages is one step (a message that comes
 * between the two is simply taken); letting the role go is another: a message that comes in between is left. A poll
 * that took a caller's message wakes the sleepers (wakeSleepers) before it lets the role go. */
inline poll(got) {
    atomic {
        if
        :: role == 0 ->
            role = 1; got = 1;
            pending = 0;
            took = 0;
            i = 0;
            do
            :: i < NC -> took = took + replyPending[i]; taken[i] = taken[i] | replyPending[i]; replyPending[i] = 0; i++
            :: else -> break
            od;
            i = 0;
            if    /* the monitor's "nobody wakes it" must not fire between the take and this wake */
            :: took > 0 && bellSleepers > 0 ->    /* wakeSleepers: a waiter's announcement is cleared, the main's stays */
                if
                :: bell == WAITER_SLEEPING -> bell = AWAKE
                :: else -> skip
                fi;
                waiterWake()
            :: else -> skip
            fi
        :: else -> got = 0
        fi
    }
    if
    :: got -> role = 0
    :: else -> skip
    fi
}

/* a sender's ring: after its message is in the log (a full fence), wake the node if its bell says it sleeps */
inline ring() {
    atomic {
        if
        :: bell == SLEEPING -> bell = AWAKE; futexWake()           /* the compare-and-set won: wake all */
        :: bell == WAITER_SLEEPING -> bell = AWAKE; waiterWake()   /* a waiter announced last: wake the waiters */
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
        :: else -> skip
        fi
    }
}

active proctype Peer() {
    pending++;
    ring();
    finished++
}

proctype Replier(byte c) {
    pending++;
    replyPending[c] = 1;
    replySent[c] = 1;
    if
    :: deadlinePassed[c] -> ring()    /* after the promise: ring */
    :: else -> skip                   /* inside the promise: the caller still polls, or looks once more */
    fi;
    finished++
}

proctype Caller(byte c; bit forReply; bit sleeps) {
    bit got, tookOver, handBack, look, done;
    byte i, n, took;
    pollingCallers++;
    if
    :: !forReply -> takeOver()
    :: else -> skip
    fi;
    run Replier(c);
    /* the brief wait: polls until done, or until its deadline (any time) */
    do
    :: poll(got)
    :: forReply && !tookOver -> takeOver()    /* late: take the bell over */
    :: replySent[c] && replyPending[c] == 0 -> break    /* done */
    :: deadlinePassed[c] = 1; break                        /* the clock passed the promise */
    od;
    /* pollThenSleep: past the deadline, sleep on the bell between looks of its own until done */
    if
    :: sleeps && !(taken[c]) ->
        bellSleepers++;
        tookOver = 1;
        do
        :: taken[c] -> break
        :: !(taken[c]) ->
            bell = WAITER_SLEEPING;
            poll(got);
            if
            :: taken[c] -> break
            :: !(taken[c]) && got ->    /* its look found nothing of its own: FUTEX_WAIT */
                atomic {
                    if
                    :: bell == WAITER_SLEEPING -> callerSleeps[c] = 1; callerWake[c] = 0
                    :: else -> skip
                    fi
                };
                if
                :: callerSleeps[c] -> callerWake[c] == 1; atomic { callerWake[c] = 0; callerSleeps[c] = 0 }
                :: else -> skip
                fi
            :: !(taken[c]) && !got -> skip    /* the role was taken: look again */
            fi
        od;
        bellSleepers--
    :: else -> skip
    fi;
    done = replySent[c] && replyPending[c] == 0;
    pollingCallers--;
    handBack = tookOver && mainAsleep;
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
    :: lookMissed && n == MAX_LAST_LOOKS -> bell = AWAKE; futexWake()   /* out of looks: wake the main thread */
    :: else -> skip
    fi;
    finished++
}

active proctype Main() {
    bit got, sleep, whileCallersPoll;
    byte i, work, took;
#ifdef SLEEPER
    run Caller(0, 0, 1);
#else
    run Caller(0, 1, 0);
#endif
#if NC > 1
    run Caller(1, 0, 1);
#endif
end_main:
    do
    :: poll(got)    /* spinning and yielding: polls, found work or not */
    :: /* idle past its awake time, or callers poll: announce, look once more, sleep */
        whileCallersPoll = (pollingCallers > 0);
        mainAsleep = 1;
        bell = SLEEPING;
        atomic {
            if
            :: role == 0 ->
                role = 1; got = 1;
                work = pending;
                pending = 0;
                i = 0;
                do
                :: i < NC -> took = took + replyPending[i]; taken[i] = taken[i] | replyPending[i]; replyPending[i] = 0; i++
                :: else -> break
                od;
                work = work + took;
                i = 0;
                if
                :: took > 0 && bellSleepers > 0 ->
                    if
                    :: bell == WAITER_SLEEPING -> bell = AWAKE
                    :: else -> skip
                    fi;
                    waiterWake()
                :: else -> skip
                fi
            :: else -> got = 0
            fi
        };
        took = 0;
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
            atomic {               /* FUTEX_WAIT: sleeps only while the bell still says SLEEPING */
                if
                :: bell == SLEEPING -> mainSleeps = 1; wake = 0
                :: else -> skip
                fi
            };
            if
            :: mainSleeps ->
end_sleep:      wake == 1;         /* until a FUTEX_WAKE; no timeout */
                atomic { wake = 0; mainSleeps = 0 }
            :: else -> skip
            fi
        :: else -> skip
        fi;
        mainAsleep = 0;
        bell = AWAKE;
        got = 0; sleep = 0; whileCallersPoll = 0
    od
}

active proctype Monitor() {
end_monitor:
    atomic {
        (finished == 1 + 2 * NC && mainSleeps && wake == 0 && (pending > 0 || replyPending[0] > 0 || replyPending[NC - 1] > 0)) ->
        assert(false)    /* a message left for the sleep's timeout */
    }
}

/* a sleeping caller whose message was taken, once nobody else will ring: left for its sleep's timeout */
active proctype SleeperMonitor() {
end_sleeper_monitor:
    atomic {
        (finished == 2 * NC && ((callerSleeps[0] && callerWake[0] == 0 && taken[0])
            || (callerSleeps[NC - 1] && callerWake[NC - 1] == 0 && taken[NC - 1]))) ->
        assert(false)
    }
}
