package dev.cumulus.it;

import dev.cumulus.internal.cloud.BroadcastEndpoint;
import dev.cumulus.internal.cloud.OrderMessage;
import dev.cumulus.internal.cloud.TotalOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Reusable fault layer below the ordering layer: every message is held for a random number of duty cycles and the
 * held messages are released in random order, so they overtake each other within and across destinations.
 */
final class DelayReorderNetwork implements BroadcastEndpoint.FaultyNetwork {
    private final TotalOrder.Network real;
    private final Random random;
    private final int maxDelayTicks;
    private final List<Held> held = new ArrayList<>();
    private long ticks;
    int delayed;

    private record Held(long due, int destination, OrderMessage message) {
    }

    DelayReorderNetwork(TotalOrder.Network real, long seed, int maxDelayTicks) {
        this.real = real;
        this.random = new Random(seed);
        this.maxDelayTicks = maxDelayTicks;
    }

    @Override
    public void send(int destination, OrderMessage message) {
        held.add(new Held(ticks + random.nextInt(maxDelayTicks + 1), destination, message));
        delayed++;
    }

    @Override
    public int tick() {
        ticks++;
        int released = 0;
        while (!held.isEmpty()) {
            int i = random.nextInt(held.size());
            Held h = held.get(i);
            if (h.due() > ticks) {
                if (held.stream().noneMatch(x -> x.due() <= ticks)) {
                    break;
                }
                continue;
            }
            held.remove(i);
            real.send(h.destination(), h.message());
            released++;
        }
        return released;
    }
}
