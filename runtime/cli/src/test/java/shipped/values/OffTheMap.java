package shipped.values;

/** A checked exception only the client has, thrown by its object on a server. */
public class OffTheMap extends Exception {
    public OffTheMap(String message) {
        super(message);
    }
}
