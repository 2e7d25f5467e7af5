/**
 * The {@code cumulus} command line: {@link dev.cumulus.cli.CumulusCli} (picocli) and one class per subcommand
 * ({@code run}, {@code classpath}; later {@code check}, {@code bench}, {@code profile}, {@code new}, {@code lsp}).
 * Started by the {@code ./cumulus} script at the repository root, and by the editor.
 *
 * <p>Threads: the main thread parses and runs one command; commands may start their own threads (see
 * {@link dev.cumulus.cli.launch}).
 *
 * <p>Never: prints a stack trace unless {@code --stack-trace} is given (errors are one line: {@code cumulus run: ...});
 * imports {@code io.aeron} (the transport package hosts the media driver); calls {@code System.exit} anywhere but
 * {@code CumulusCli.main}, so tests run commands in-process through {@code CumulusCli.execute}.
 */
package dev.cumulus.cli;
