# The interpreter for a new .venv (sourced by scripts/setup).
#   pick_python CANDIDATE...   prints $PYTHON when it is set; else the first candidate that is Python 3.11 or newer
#                              and can make a virtual environment (venv and ensurepip: Debian's python3-venv);
#                              else the last candidate.
# scripts/setup tries the distribution's /usr/bin/python3 before python3 from PATH: Debian (as Ubuntu and Fedora)
# builds it with profile-guided and link-time optimisation, and the play server took 8 to 30 % less CPU per action
# under Debian's 3.11 than under a plain source build of 3.11 (pyenv's default) on the same machine
# (docs/server.md, "The interpreter").
pick_python() {
  if [ -n "${PYTHON:-}" ]; then
    echo "$PYTHON"
    return
  fi
  local py
  for py in "$@"; do
    if command -v "$py" >/dev/null 2>&1 &&
      "$py" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      echo "$py"
      return
    fi
  done
  echo "${@: -1}"
}
