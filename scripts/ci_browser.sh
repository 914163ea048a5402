#!/usr/bin/env bash
# Installs what the ui_poll_browser test drives (a real browser answering the class poll): Debian's chromium,
# chromium-driver and python3-selenium, the ones missing only (apt-get, as root, quietly). Run by .ci/run before the
# build, which then sets LAUNCHLAB_REQUIRE_BROWSER=1 so that the test fails rather than skips without them.
set -euo pipefail
missing=()
for p in chromium chromium-driver python3-selenium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "ci_browser: chromium, chromium-driver and python3-selenium are installed"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ci_browser: ${missing[*]} missing; as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "ci_browser: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q > /dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" > /dev/null
