package shipped.admin;

/** A client's object for AdminSystemTest (shipped to the servers: they do not have it). */
public interface Counter {
    int add(int n);

    /** The process the object lives in. */
    long pid();
}
