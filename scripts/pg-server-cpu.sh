#!/usr/bin/env bash
# The CPU time (in clock ticks, 1/100 s here) every process of the local PostgreSQL server has
# used: its background processes' own, and the postmaster's own plus that of the backends it
# has reaped (cutime/cstime), so a client's backend counts once it has disconnected. Read it
# before and after a run; the difference is the server's CPU for the run (and for anything
# else that used the server meanwhile). Linux /proc only.
#
#   before=$(scripts/pg-server-cpu.sh); squash --db $PG import s.jsonl; sleep 1
#   echo "server CPU: $(( $(scripts/pg-server-cpu.sh) - before )) ticks"
set -euo pipefail
postmaster=$(pgrep -o -x postgres)
total=0
for pid in $postmaster $(pgrep -f '^postgres:' || true); do
  [ -r "/proc/$pid/stat" ] || continue
  # The fields after "(comm) ": 0 state ... 11 utime, 12 stime, 13 cutime, 14 cstime.
  read -r -a f < <(sed 's/.*) //' "/proc/$pid/stat")
  ticks=$((f[11] + f[12]))
  if [ "$pid" = "$postmaster" ]; then ticks=$((ticks + f[13] + f[14])); fi
  total=$((total + ticks))
done
echo "$total"
