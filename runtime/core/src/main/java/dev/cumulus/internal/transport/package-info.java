/**
 * The transport: the only package that imports {@code io.aeron}. It gives the layers above node ids, two
 * {@link dev.cumulus.internal.transport.Channel}s (control, data) and Agrona buffers, and hides streams,
 * publications, chunking of large messages, back-pressure and connection waits. Every message travels behind a
 * {@code FrameHeaderFlyweight} ({@code docs/design/WIRE.md}); over UDP every frame is sealed under the run's secret
 * ({@code SealedPublication} out, {@code FrameOpener} in: an HMAC-SHA256 tag or AES-GCM, and a counter against
 * replays; a standing cluster's clients under keys of their own, {@code ClientSeals}); over IPC frames stay in the run's owner-only driver directory ({@code DriverHost}) and are not sealed.
 *
 * <p>Threads: whichever thread holds the node's polling role polls ({@code NodeTransport.poll}), one at a time; any
 * thread sends; closing waits for the threads still inside a send before it unmaps Aeron's buffers, and sends after it
 * fail naming the closed transport ({@code SendGate}). {@code DriverHost} runs the shared media driver's single thread.
 * {@code Doorbells} let an idle node of a host sleep until a sender rings.
 *
 * <p>Never: blocks the polling thread, spins forever on back-pressure (every wait has a deadline), accepts a frame
 * of another run, decodes a UDP frame whose seal does not check (it is dropped, counted and told at most once a
 * second, {@code FrameRejections}), allocates for a chunked message more than the data that arrived (or more than a sender's bound), or
 * prints an error once per occurrence ({@code TransportErrors} counts repeats and prints them once per interval).
 */
package dev.cumulus.internal.transport;
