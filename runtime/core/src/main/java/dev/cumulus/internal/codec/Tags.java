package dev.cumulus.internal.codec;

/** Wire tags: the first byte of every encoded value. See docs/design/TRANSFER.md for the layout after each tag. */
final class Tags {
    static final byte NULL = 0;
    static final byte REF = 1;
    static final byte REMOTE_REF = 2;
    static final byte BOOLEAN = 3;
    static final byte BYTE = 4;
    static final byte SHORT = 5;
    static final byte CHAR = 6;
    static final byte INT = 7;
    static final byte LONG = 8;
    static final byte FLOAT = 9;
    static final byte DOUBLE = 10;
    static final byte STRING = 11;
    static final byte ENUM = 12;
    static final byte RECORD = 13;
    static final byte OBJECT = 14;

    static final byte BOOLEAN_ARRAY = 16;
    static final byte BYTE_ARRAY = 17;
    static final byte SHORT_ARRAY = 18;
    static final byte CHAR_ARRAY = 19;
    static final byte INT_ARRAY = 20;
    static final byte LONG_ARRAY = 21;
    static final byte FLOAT_ARRAY = 22;
    static final byte DOUBLE_ARRAY = 23;
    static final byte OBJECT_ARRAY = 24;

    static final byte ARRAY_LIST = 32;
    static final byte LINKED_LIST = 33;
    static final byte ARRAY_DEQUE = 34;
    static final byte HASH_SET = 35;
    static final byte LINKED_HASH_SET = 36;
    static final byte TREE_SET = 37;
    static final byte HASH_MAP = 38;
    static final byte LINKED_HASH_MAP = 39;
    static final byte TREE_MAP = 40;
    static final byte FIXED_SIZE_LIST = 41;

    static final byte IMMUTABLE_LIST = 48;
    static final byte IMMUTABLE_SET = 49;
    static final byte IMMUTABLE_MAP = 50;
    static final byte UNMODIFIABLE_SET = 51;
    static final byte UNMODIFIABLE_MAP = 52;

    static final byte OPTIONAL_EMPTY = 56;
    static final byte OPTIONAL = 57;
    static final byte INSTANT = 58;
    static final byte DURATION = 59;
    static final byte LOCAL_DATE = 60;
    static final byte BIG_INTEGER = 61;
    static final byte BIG_DECIMAL = 62;
    static final byte UUID = 63;

    /** Raw strings (class names, enum constants, string values) start with a coder byte. */
    static final byte CODER_NULL = 0;
    static final byte CODER_LATIN1 = 1;
    static final byte CODER_UTF16 = 2;

    /** Class references: an index into the message's class table, or NEW_CLASS followed by name and fingerprint. */
    static final int NEW_CLASS = -1;
    /** String-table references in throwables: an index, NEW_STRING followed by a raw string, or NULL_STRING. */
    static final int NEW_STRING = -1;
    static final int NULL_STRING = -2;

    private Tags() {
    }
}
