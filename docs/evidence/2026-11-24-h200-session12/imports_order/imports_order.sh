#!/usr/bin/env bash
# Diagnostic (session 12): test_device_imports alone on a fresh lease, its QINFO lines saying which frame failed.
set -u
FINAL=$1
ROOT=$(mktemp -d); tar -C "$ROOT" -xJf .carry/gui.tar.xz; G=$ROOT/gui; E=$ROOT/order; mkdir -p "$E/shots" "$ROOT/xdg"; chmod 700 "$ROOT/xdg"
trap 'tar -C "$ROOT" -czf "$FINAL/order.tar.gz" order' EXIT
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT" QT_QPA_PLATFORM=offscreen
export QT_QPA_PLATFORM_PLUGIN_PATH="$G/platforms" FONTCONFIG_FILE="$G/fonts.conf" QT_LOGGING_RULES="qt.qpa.*=false"
export LAUNCHLAB_EXERCISES_DIR="$PWD/resources/exercises" LAUNCHLAB_GL_SHOTS="$E/shots" LAUNCHLAB_CLI_PATH="$G/bin/launchlab-cli"
[ -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ] || { echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > "$ROOT/10_nvidia.json"; export __EGL_VENDOR_LIBRARY_FILENAMES="$ROOT/10_nvidia.json"; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader; } > "$E/info.txt"
up() { echo "$1: uptime $(cut -d' ' -f1 /proc/uptime) s" >> "$E/info.txt"; }
up start
timeout 200 "$G/bin/test_device_imports" > "$E/test_device_imports.txt" 2>&1; echo "test_device_imports exit $?" >> "$E/info.txt"
up end
(dmesg 2>/dev/null || journalctl -k --no-pager) | grep -i xid > "$E/xids.txt"
cat "$E/info.txt"; grep -E "QINFO|QWARN|FAIL|Totals" "$E/test_device_imports.txt" | cut -c1-220; cut -c1-200 "$E/xids.txt"
