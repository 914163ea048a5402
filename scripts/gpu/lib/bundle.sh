# Sourced by the scripts that bundle a build for the GPU machine (bundle_gui.sh, bundle_suites.sh), on the build machine.

# stage_runtime STAGE FILE...: every shared library ldd lists for the FILEs (but glibc's own, libstdc++ and libgcc_s,
# which the GPU machine has) into STAGE/lib, DejaVu fonts into STAGE/fonts, and a fonts.conf that finds them there
# (without one every glyph is a box).
stage_runtime() {
  local stage=$1 f
  shift
  mkdir -p "$stage/lib" "$stage/fonts"
  for f in "$@"; do ldd "$f" 2> /dev/null | awk '$3 ~ /^\// {print $3}'; done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | ld-linux* | libstdc++.so* | libgcc_s.so*) ;;
      *) cp -L "$lib" "$stage/lib/" ;;
    esac
  done
  cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$stage/fonts/" 2> /dev/null || true
  cat > "$stage/fonts.conf" << 'EOF'
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">fonts</dir><cachedir>/tmp/launchlab-fontcache</cachedir></fontconfig>
EOF
}
