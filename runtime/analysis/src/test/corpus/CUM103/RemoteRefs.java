package corpus.cum103;

import dev.cumulus.Cloud;
import dev.cumulus.Cluster;
import java.rmi.Remote;
import java.util.ArrayList;
import java.util.List;

interface Ledger extends Remote {
}

/** Used as a remote interface by the program (lookup below), so it counts as a remote object type. */
interface Audit {
    void record(int x);
}

class Wiring {
    static Audit connect(Cluster cluster) {
        return cluster.lookup("audit", Audit.class);
    }
}

/** Violating: a cloud holding, taking and returning remote references (Manta's nested invocation problem). */
public class RemoteRefs implements Cloud.Root {
    private Ledger ledger = null; // expect: CUM103
    private List<Audit> audits = new ArrayList<>(); // expect: CUM103
    private int count;

    public void log(Audit audit) { count++; } // expect: CUM103; classify: write

    public Ledger ledger() { return ledger; } // expect: CUM103; classify: read

    public int count() { return count + audits.size(); } // classify: read
}
