package dev.cumulus.cli.launch;

import java.security.SecureRandom;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Run ids: {@code yyMMdd-HHmmss-xxxx} (local time, then 16 random bits), short, sortable, unique in practice. */
final class RunId {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyMMdd-HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunId() {
    }

    static String next() {
        byte[] b = new byte[2];
        RANDOM.nextBytes(b);
        return FORMAT.format(LocalDateTime.now()) + "-" + HexFormat.of().formatHex(b);
    }
}
