#!/bin/sh
# launchlab --remote: a refused host or launchlab-cli path leaves the saved GPU server as it was (exit 2, one line),
# and a server whose shell prints a banner before the worker answers still gives a window (its first run, then a
# screenshot); live frames that fail end a --screenshot at once, with the failure on screen and on stderr (exit 1).
# Usage: remote_settings.sh <launchlab> <launchlab-cli> <fake_worker>
app="$1"
cli="$2"
fake="$3"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
conf="$tmp/LaunchLab/launchlab.conf"
mkdir -p "$tmp/LaunchLab"
saved='[remote]
cli=/opt/launchlab/bin/launchlab-cli
host=student@lab-gpu'
for args in "--remote=-oProxyCommand=x" "--remote=host:22:33" "--remote=lab-gpu --remote-cli=a;b"; do
  printf '%s\n' "$saved" > "$conf"
  # shellcheck disable=SC2086 # the words of $args are the options
  out=$(XDG_CONFIG_HOME="$tmp" "$app" $args --no-gl --no-first-run 2>&1)
  rc=$?
  [ $rc -eq 2 ] || { echo "$args: exit code $rc ($out)"; exit 1; }
  [ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "$args: more than one line: $out"; exit 1; }
  grep -q '^host=student@lab-gpu$' "$conf" && grep -q '^cli=/opt/launchlab/bin/launchlab-cli$' "$conf" ||
    { echo "$args changed the saved server:"; cat "$conf"; exit 1; }
done
# A banner before the worker's hello: ssh stands in as a script that starts a worker printing one first.
cat > "$tmp/ssh" <<SSH
#!/bin/sh
exec "$fake" banner "$cli"
SSH
chmod +x "$tmp/ssh"
LAUNCHLAB_SSH="$tmp/ssh" "$app" --remote lab-gpu --no-gl --screenshot "$tmp/s.png" || { echo "no window with a banner"; exit 1; }
[ -s "$tmp/s.png" ] || { echo "no screenshot"; exit 1; }
# A server whose worker writes a stray line into every run: live frames fail, so no plot is ever shown.
cat > "$tmp/ssh" <<SSH
#!/bin/sh
exec "$fake" stray "$cli"
SSH
out=$(LAUNCHLAB_SSH="$tmp/ssh" timeout 60 "$app" --remote lab-gpu --live --no-gl --screenshot "$tmp/live.png" 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "live frames that fail: exit code $rc, not 1 ($out)"; exit 1; }
echo "$out" | grep -q "live mode failed: .*not a frame" || { echo "the failure is not said: $out"; exit 1; }
[ -s "$tmp/live.png" ] || { echo "no screenshot of the failure"; exit 1; }
echo ok
