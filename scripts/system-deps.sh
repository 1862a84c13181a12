#!/usr/bin/env bash
# Installs the system packages that some tests need, from Debian's packages, when they are missing:
# Chromium (the review page's browser tests) and Java 17 (Spark). Needs root; otherwise it says what is missing and
# those tests skip (CI runs as root and requires them).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: not root, so not installing ${missing[*]}: the tests that need them will skip" >&2
    exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system-deps: installed ${missing[*]}"
