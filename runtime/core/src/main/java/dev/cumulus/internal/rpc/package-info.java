/**
 * Remote calls between nodes (Babylon §3's RMI baseline): {@link dev.cumulus.internal.rpc.RpcEngine} encodes calls,
 * matches replies to waiting callers, serves incoming calls (inline on the polling thread, or on a virtual thread of
 * their own) and sends one-way calls; {@link dev.cumulus.internal.rpc.RemoteInvocationHandler} is the dynamic proxy
 * behind every remote reference; {@link dev.cumulus.internal.rpc.RemoteObjects} and
 * {@link dev.cumulus.internal.rpc.NameDirectory} export and look up objects by name; {@link
 * dev.cumulus.internal.rpc.Brief} marks the system methods any polling thread may run; {@link
 * dev.cumulus.internal.rpc.ExportTable} holds the objects a node serves, and {@link
 * dev.cumulus.internal.rpc.InlineRecord} how each method fared when run inline. {@link
 * dev.cumulus.internal.rpc.CallHeaderFlyweight} and {@link dev.cumulus.internal.rpc.ReplyHeaderFlyweight} read and
 * write the headers of calls and answers in place ({@code docs/design/WIRE.md}). Asynchronous calls (tickets,
 * {@code Remote.async}) hold no thread while they wait: a future without callbacks is completed by the thread that
 * polled its answer, right after its poll (a thread that waits for a result polls for it, so in a steady stream the
 * caller completes its own answers); {@link dev.cumulus.internal.rpc.AsyncReplies} completes the others off the
 * polling thread, the answers of one poll one after another on one drainer thread.
 *
 * <p>Objects that move (Babylon §4.2; the moves themselves, the state copies and the {@code @SafeMode} call queues are
 * module runtime/migration's, reached through {@link dev.cumulus.internal.rpc.ObjectMover}): every user object's calls
 * enter through its {@link dev.cumulus.internal.rpc.ObjectGate}, which holds them during a move (they go to the new
 * node with the object and run there first) and forwards later ones after.
 *
 * <p>Clients of a standing cluster (module runtime/service): {@link dev.cumulus.internal.rpc.ClientService} is what
 * the engine asks of a server's client service — which client calls may run (checked on the polling thread before
 * anything is decoded, for calls from clients only), who calls, whose objects run for whom — with
 * {@link dev.cumulus.internal.rpc.ClientService#NONE} on an SPMD run's nodes; {@link
 * dev.cumulus.internal.rpc.AccessRule} is an owned object's grant, kept with it here and by the name service for
 * lookups.
 *
 * <p>Arguments and results go by value through {@code dev.cumulus.internal.codec} (never Java serialization). Which
 * thread runs what is in {@code docs/design/THREADING.md}.
 */
package dev.cumulus.internal.rpc;
