package shipped.values;

import dev.cumulus.Transferable;

/** A {@code @Transferable} class of the client (copied field by field, no Java serialization). */
@Transferable
public class Note {
    private String text;
    private Point at;

    Note() {
    }

    public Note(String text, Point at) {
        this.text = text;
        this.at = at;
    }

    public String text() {
        return text;
    }

    public Point at() {
        return at;
    }
}
