#!/usr/bin/env bash
# Installs the headless browser the dashboard's browser test drives (tests/ui/test_ui_browser.py):
# Debian's chromium and its matching chromedriver, only if absent. Selenium uses these two binaries
# directly; nothing is downloaded at test time.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium chromium-driver
/usr/bin/chromium --version
/usr/bin/chromedriver --version
