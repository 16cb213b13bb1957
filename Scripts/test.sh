#!/usr/bin/env bash
# Runs Moat's whole test suite on a fresh Linux machine with the Swift toolchain.
# Installs what the tests need beyond the toolchain when it is missing (zlib headers; Python jsonschema
# when MOAT_SARIF_SCHEMA names the official SARIF schema, so that the tests validate against it).
# Needs nothing beside the checkout; without MOAT_SARIF_SCHEMA the official-schema test says it is skipped
# and the project's own structural SARIF check runs instead.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

need_apt=()
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-pip)
if [ ${#need_apt[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi
if [ -n "${MOAT_SARIF_SCHEMA:-}" ] && ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
  python3 -m pip install --quiet jsonschema || python3 -m pip install --quiet --break-system-packages jsonschema
fi

swift build --build-tests
swift test --skip-build "$@"
