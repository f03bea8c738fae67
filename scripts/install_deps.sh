#!/usr/bin/env bash
# install_deps.sh - install what PSF needs on Debian 12 (or Ubuntu) and is
# missing: a C compiler and make, libxml2 (headers and xmllint), jansson
# (psf-score writes its JSON with it), cmocka, a JDK 17, jq (the tests read
# JSON with it), bubblewrap (the sandbox), valgrind, GNU parallel
# (scripts/score_batch.sh), chromium and chromium-driver (the tests open the
# HTML pages in a headless browser) and openssh-server (the batch test logs
# in to 127.0.0.1 through a private sshd) and junit5 (the JUnit 5 console
# launcher, /usr/share/java/junit-platform-console-standalone.jar, that runs
# the JUnit example's tests while it is scored). Installs nothing that is already
# there; uses sudo when not root.
set -eu
case $# in
  0) ;;
  *) case $1 in
       -h|--help) printf '%s\n' "Usage: scripts/install_deps.sh" \
         "Installs with apt-get (through sudo when not root) what PSF needs and is missing;" \
         "the list and why: docs/development.md#dependencies. Exit: 0 once all is there."; exit 0 ;;
       *) echo "install_deps.sh: it takes no arguments, not '$1' (see --help)" >&2; exit 2 ;;
     esac ;;
esac
want=(gcc make pkg-config libxml2-dev libxml2-utils libjansson-dev libcmocka-dev libssl-dev jq bubblewrap valgrind shellcheck clang libclang-rt-14-dev
  parallel chromium chromium-driver openssh-server openssh-client junit5)
have_jdk() {
  local javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac
  command -v "$javac" >/dev/null 2>&1 || return 1
  local v
  v=$("$javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
  [ -n "$v" ] && [ "$v" -ge 17 ]
}
have_jdk || want+=(openjdk-17-jdk-headless)
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install_deps.sh: installing ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install_deps.sh: not root and no sudo: install ${missing[*]} yourself" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
