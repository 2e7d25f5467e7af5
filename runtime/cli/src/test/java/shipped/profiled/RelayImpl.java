package shipped.profiled;

import shipped.admin.Counter;

/** Calls the counter it is given, from the server it lives on. */
public class RelayImpl implements Relay {
    @Override
    public int relay(Counter target, int times) {
        int total = 0;
        for (int i = 0; i < times; i++) {
            total = target.add(1);
        }
        return total;
    }
}
