#!/usr/bin/env bash
# Debian's Chromium for the browser tests (playwright-core drives /usr/bin/chromium; Playwright's
# own browser download does not work here). Installs it only when it is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  /usr/bin/chromium --version 2>/dev/null || true
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
