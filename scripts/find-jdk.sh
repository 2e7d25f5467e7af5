# Sourced by ./cumulus and ./build. Sets CUMULUS_JAVA_HOME to a JDK 25 or newer, or explains what to install.
# Order: $CUMULUS_JAVA_HOME, $JAVA_HOME, `java` on PATH, then the usual install locations.
cumulus_java_major() {  # prints the feature version of the JDK at $1, or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}
cumulus_find_jdk() {
  local candidates=() c v
  [ -n "${CUMULUS_JAVA_HOME:-}" ] && candidates+=("$CUMULUS_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v java)"); candidates+=("${c%/bin/java}")
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    v=$(cumulus_java_major "$c")
    if [ -n "$v" ] && [ "$v" -ge 25 ]; then CUMULUS_JAVA_HOME="$c"; export CUMULUS_JAVA_HOME; return 0; fi
  done
  {
    echo "cumulus: no JDK 25 or newer found."
    echo "  Looked at: \$CUMULUS_JAVA_HOME, \$JAVA_HOME, java on PATH, /usr/lib/jvm/*, /opt/java/*, ~/.sdkman, ~/.jdks."
    echo "  Install one (e.g. 'apt-get install temurin-25-jdk' from Adoptium's repository, or 'sdk install java 25-tem'),"
    echo "  or point CUMULUS_JAVA_HOME at an existing JDK 25 installation."
  } >&2
  return 1
}
