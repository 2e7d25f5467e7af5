package dev.cumulus.cli.launch;

import java.util.List;

/**
 * How the launcher runs a command on another host of the run: through OpenSSH ({@link Ssh}, {@code --hosts}) or as a
 * step of the Slurm job it is inside ({@link Srun}). Either way the command's stdin, stdout and stderr are the local
 * process's, and the command ends when that process's stdin ends or it is killed.
 */
interface HostReach {
    /** The local command that runs {@code command} on {@code host}. */
    List<String> command(String host, List<String> command);

    /** The local command that runs the POSIX shell line {@code line} on {@code host}. */
    List<String> shellCommand(String host, String line);

    /**
     * What a local process of {@link #command} that ended with {@code exitCode} before the remote command answered
     * says about the host, in words for the user, or null when the code tells nothing of the way there.
     */
    String explain(String host, int exitCode);
}
