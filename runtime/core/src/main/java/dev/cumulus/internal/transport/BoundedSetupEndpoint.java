package dev.cumulus.internal.transport;

import io.aeron.driver.DataPacketDispatcher;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ReceiveChannelEndpointSupplier;
import io.aeron.driver.media.ReceiveChannelEndpoint;
import io.aeron.driver.media.UdpChannel;
import io.aeron.protocol.SetupFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The media driver's UDP receiving end with a bound on what a setup frame may ask for. Aeron makes a new image (three
 * log buffers of the term length the setup frame declares, up to 1 GiB each) for every setup frame of a stream this
 * host subscribes to, before any frame of ours is checked for its seal. Cumulus streams use term lengths up to
 * {@link TransportContext#DEFAULT_DATA_TERM_LENGTH}, so a setup frame that declares more (or a length Aeron would
 * refuse anyway) is dropped here: nothing is allocated for it, and it is told on the driver's error output (distinct
 * and rate-limited, with the address it came from).
 *
 * <p>Threads: the driver's receiver thread.
 */
final class BoundedSetupEndpoint extends ReceiveChannelEndpoint {
    static final int MIN_TERM_LENGTH = 64 * 1024;
    /** Setup frames dropped by the endpoints of every driver in this JVM ({@link DriverHost#droppedSetupFrames()}). */
    private static final AtomicLong DROPPED = new AtomicLong();

    private final int maxTermLength;
    private final TransportErrors errors;

    private BoundedSetupEndpoint(UdpChannel channel, DataPacketDispatcher dispatcher, AtomicCounter status,
                                 MediaDriver.Context context, int maxTermLength, TransportErrors errors) {
        super(channel, dispatcher, status, context);
        this.maxTermLength = maxTermLength;
        this.errors = errors;
    }

    /** Endpoints that drop setup frames declaring a term length above {@code maxTermLength}. */
    static ReceiveChannelEndpointSupplier supplier(int maxTermLength, TransportErrors errors) {
        return (channel, dispatcher, status, context) ->
            new BoundedSetupEndpoint(channel, dispatcher, status, context, maxTermLength, errors);
    }

    /** Setup frames dropped so far by the drivers of this JVM. */
    static long dropped() {
        return DROPPED.get();
    }

    /** Whether a setup frame declaring {@code termLength} may make an image. */
    static boolean acceptable(int termLength, int maxTermLength) {
        return Integer.bitCount(termLength) == 1 && termLength >= MIN_TERM_LENGTH && termLength <= maxTermLength;
    }

    @Override
    public void onSetupMessage(SetupFlyweight header, UnsafeBuffer buffer, int length, InetSocketAddress source,
                               int transportIndex) {
        int termLength = header.termLength();
        if (!acceptable(termLength, maxTermLength)) {
            DROPPED.incrementAndGet();
            errors.report("setup frame with a bad term length", "dropped an Aeron setup frame from " + source
                + " declaring a term length of " + termLength + " bytes (this host's streams take powers of two from "
                + MIN_TERM_LENGTH + " to " + maxTermLength + "); nothing was allocated for it");
            return;
        }
        super.onSetupMessage(header, buffer, length, source, transportIndex);
    }
}
