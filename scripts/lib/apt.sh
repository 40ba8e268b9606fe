# shellcheck shell=bash
# apt_install PACKAGE...: install the Debian packages that are missing, as root or through sudo,
# waiting (bounded) while another apt or dpkg process holds the package manager's lock.
#   SPACETABLE_APT_WAIT  longest wait for the lock in seconds (default 600)
#   SPACETABLE_APT_POLL  seconds between tries (default 5)
# Returns non-zero when the packages could not be installed (no root and no sudo, lock never freed,
# apt error); the message says why.

apt_missing() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
  done
}

apt_as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo "$@"
  else
    echo "apt: not root and no password-less sudo: cannot run $*" >&2
    return 1
  fi
}

# apt_run ARGS...: `apt-get ARGS` that retries while the lock is held, printing why it waits.
apt_run() {
  local wait=${SPACETABLE_APT_WAIT:-600} poll=${SPACETABLE_APT_POLL:-5} waited=0 out rc
  local apt=${APT_GET:-apt-get}
  while true; do
    rc=0
    out=$(apt_as_root env DEBIAN_FRONTEND=noninteractive "$apt" "$@" 2>&1) || rc=$?
    if [ "$rc" = 0 ]; then
      return 0
    fi
    if ! grep -qiE "could not get lock|unable to acquire|is another process using it" <<<"$out"; then
      echo "$out" >&2
      return "$rc"
    fi
    if [ "$waited" -ge "$wait" ]; then
      echo "apt: another apt/dpkg process still holds the lock after ${wait}s; giving up (SPACETABLE_APT_WAIT)" >&2
      return "$rc"
    fi
    if [ "$waited" = 0 ]; then
      echo "apt: another apt/dpkg process holds the lock; waiting for it (up to ${wait}s)..." >&2
    fi
    sleep "$poll"
    waited=$((waited + poll))
  done
}

apt_install() {
  local missing
  mapfile -t missing < <(apt_missing "$@")
  [ "${#missing[@]}" = 0 ] && return 0
  command -v "${APT_GET:-apt-get}" >/dev/null || { echo "apt: apt-get not found; install ${missing[*]} yourself" >&2; return 1; }
  echo "apt: installing ${missing[*]}..."
  apt_run update -qq && apt_run install -y -qq --no-install-recommends "${missing[@]}"
}
