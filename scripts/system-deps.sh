#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only those missing. Idempotent.
set -euo pipefail
need=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v chromium >/dev/null 2>&1 || need+=(chromium)  # browser tests (Playwright drives it)
command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)  # the Pi install script
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)  # unit files are verified
command -v ip >/dev/null 2>&1 || need+=(iproute2)
command -v unshare >/dev/null 2>&1 || need+=(util-linux)  # mDNS tests run in a private network namespace
command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] || need+=(nftables)  # the installer's connection limits are checked
[ ${#need[@]} -eq 0 ] && exit 0
echo "system-deps: installing ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
