#!/usr/bin/env bash
# Two background workers that finish in an order the scheduler decides: each announces itself, waits a
# random moment, writes its result under ./out and says it is done. The parent waits for both.
set -eu

# No `rm -rf out` first: REA snapshots ./out before launch, so files left by an earlier run would show as
# unchanged rather than created. Refusing to run makes that visible; remove ./out before each capture.
mkdir out

work() {
  local name=$1
  echo "worker $name: started"
  # 10 to 300 ms, so either worker can finish first.
  sleep "0.$(printf '%03d' $((RANDOM % 291 + 10)))"
  echo "result of $name" >"out/$name.txt"
  echo "worker $name: done"
}

work a &
work b &
wait
echo 'all done'
