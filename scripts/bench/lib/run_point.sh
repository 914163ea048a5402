# Sourced by scripts/bench/*.sh (this folder is not run by device_check.sh's loop over scripts/bench/*.sh).
# run_point NAME SUBCOMMAND ARGS…: one `launchlab-cli run|sweep` ($cli) with --reps $reps --warmup 2, its JSON (and
# CSV for a sweep) and its table in $out/NAME.*; counts a failure in $failed and prints the table's lines matching
# $show (at most $show_lines of them).
run_point() {
  local name=$1 sub=$2
  shift 2
  printf '%-30s launchlab-cli %s %s\n' "$name" "$sub" "$*"
  local extra=(--json "$out/$name.json")
  [[ $sub == sweep ]] && extra+=(--csv "$out/$name.csv")
  "$cli" "$sub" "$@" --reps "$reps" --warmup 2 "${extra[@]}" >"$out/$name.txt" 2>&1
  local rc=$?
  [[ $rc -eq 0 ]] || { failed=$((failed + 1)); echo "  -> exit $rc; see $out/$name.txt"; }
  grep -E "$show" "$out/$name.txt" | head -n "$show_lines" | sed 's/^/     /'
}
