package svit;

/** Waits on a monitor nobody notifies until it is interrupted; tells its name as its own Thread object knows it. */
public class Sleeper extends Thread {
    private final Object lock;

    public Sleeper(Object lock) {
        super("sleeper");
        this.lock = lock;
    }

    @Override
    public void run() {
        System.out.println("sleeper named " + getName() + " runs as " + Thread.currentThread().getName());
        synchronized (lock) {
            try {
                lock.wait();
                System.out.println("sleeper woke without an interrupt");
            } catch (InterruptedException e) {
                System.out.println("sleeper interrupted in wait");
            }
        }
    }
}
