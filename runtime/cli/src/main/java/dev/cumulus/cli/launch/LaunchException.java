package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;

/**
 * A run that cannot start because of what the user asked for (bad node count, unknown main class, unsupported
 * option). Thrown before any process or driver is started; the command line maps it to exit code 2.
 */
public final class LaunchException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public LaunchException(String message) {
        super(message);
    }
}
