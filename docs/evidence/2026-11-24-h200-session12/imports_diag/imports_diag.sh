#!/usr/bin/env bash
# Diagnostic (session 12): the device-imports test with the worker under compute-sanitizer memcheck, then plain.
set -u
FINAL=$1
ROOT=$(mktemp -d); tar -C "$ROOT" -xJf .carry/gui.tar.xz; G=$ROOT/gui; E=$ROOT/diag; mkdir -p "$E/shots" "$ROOT/xdg"; chmod 700 "$ROOT/xdg"
trap 'tar -C "$ROOT" -czf "$FINAL/diag.tar.gz" diag' EXIT
export LD_LIBRARY_PATH="$G/lib:${LD_LIBRARY_PATH:-}" XDG_RUNTIME_DIR="$ROOT/xdg" HOME="$ROOT" QT_QPA_PLATFORM=offscreen
export QT_QPA_PLATFORM_PLUGIN_PATH="$G/platforms" FONTCONFIG_FILE="$G/fonts.conf" QT_LOGGING_RULES="qt.qpa.*=false"
export LAUNCHLAB_EXERCISES_DIR="$PWD/resources/exercises" LAUNCHLAB_GL_SHOTS="$E/shots"
[ -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ] || { echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > "$ROOT/10_nvidia.json"; export __EGL_VENDOR_LIBRARY_FILENAMES="$ROOT/10_nvidia.json"; }
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
echo "sanitizer: $CS" > "$E/info.txt"; nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader >> "$E/info.txt"; date -u >> "$E/info.txt"
cat > "$ROOT/worker.sh" <<W
#!/usr/bin/env bash
exec "$CS" --tool memcheck --log-file "$E/sanitizer_%p.log" --print-limit 20 "$G/bin/launchlab-cli" "\$@"
W
chmod +x "$ROOT/worker.sh"
xid() { (dmesg 2>/dev/null || journalctl -k --no-pager) | grep -i xid > "$E/xids_$1.txt"; }
xid start
timeout 200 "$G/bin/launchlab_gl_gpu_tests" > "$E/gl_start.txt" 2>&1; echo "gl_start $?" >> "$E/info.txt"
LAUNCHLAB_CLI_PATH="$ROOT/worker.sh" timeout 240 "$G/bin/test_device_imports" > "$E/imports_sanitized.txt" 2>&1; echo "imports_sanitized $?" >> "$E/info.txt"
xid after_sanitized
LAUNCHLAB_CLI_PATH="$G/bin/launchlab-cli" timeout 150 "$G/bin/test_device_imports" > "$E/imports_plain.txt" 2>&1; echo "imports_plain $?" >> "$E/info.txt"
xid after_plain
cat "$E/info.txt"; grep -h "FAIL\|QWARN\|Totals" "$E"/imports_*.txt; ls "$E"; cat "$E"/xids_after_plain.txt | tail -8
