#!/bin/sh
# make bench, OpenTelemetry part: what exporting SPANS syscall spans adds to
# a traced run, per protocol, against the same run without export, and the
# peak RSS of renacer while it exports (limits: +2 s, 30 MB; issue 12).
# The command makes SPANS getppid calls (tests/progs/otlpprog burst); the
# receiver is the tests' collector (the official .proto files decoded by
# python3-protobuf / python3-grpcio, every request parsed, only counts
# logged).  PIN=1 (default) runs renacer and the command on CPU 0 and the
# receiver on CPU 1.  Run from make bench (BUILD set), or alone.
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
R="$TOP/$BUILD/renacer"
P="$TOP/$BUILD/progs/otlpprog"
SPANS=${OTLP_SPANS:-100000}
RUNS=${OTLP_RUNS:-5}
PIN=${PIN:-1}
PY=/usr/bin/python3
OT="$TOP/tests/otlp/otlptest.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/renacer-bench-otlp.XXXXXX")
export OTLPTEST_CACHE="$T/protos" LC_ALL=C LANG=C
mkdir -p "$OTLPTEST_CACHE"
rpids=""
trap 'for p in $rpids; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
pin="" rpin=""
if [ "$PIN" = 1 ]; then
	pin="taskset -c 0"
	[ "$(nproc)" -gt 1 ] && rpin="taskset -c 1"
fi

serve() { # kind name: starts a receiver, sets PORT
	$rpin "$PY" "$OT" serve --protocol "$1" --count-only --out "$T/rx.$2" \
		--port-file "$T/port.$2" --lifetime 3600 &
	rpids="$rpids $!"
	i=0
	while [ ! -s "$T/port.$2" ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && { echo "bench_otlp: the receiver did not start" >&2; exit 1; }
		sleep 0.05
	done
	PORT=$(cat "$T/port.$2")
}

one() { # name renacer-options...: appends "seconds maxrss_kb" to $T/t.name
	n=$1
	shift
	/usr/bin/time -f '%e %M' -o "$T/time" $pin "$R" -o /dev/null "$@" -- "$P" burst "$SPANS" \
		>/dev/null 2>"$T/err"
	[ -s "$T/err" ] && { echo "bench_otlp: $n: $(cat "$T/err")" >&2; }
	cat "$T/time" >> "$T/t.$n"
}

med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

serve grpc grpc; pg=$PORT
serve http proto; pp=$PORT
serve http json; pj=$PORT
for i in $(seq "$RUNS"); do
	one base
	one grpc --otlp "http://127.0.0.1:$pg" --otlp-protocol grpc
	one proto --otlp "http://127.0.0.1:$pp" --otlp-protocol http/protobuf
	one json --otlp "http://127.0.0.1:$pj" --otlp-protocol http/json
	one file --otlp-file "$T/spans.jsonl"
done

echo
echo "== OTLP export: $SPANS syscall spans (otlpprog burst $SPANS), median of $RUNS runs$( [ "$PIN" = 1 ] && echo ", renacer pinned to CPU 0")"
printf '%-26s %10s %12s %14s %10s\n' "mode" "seconds" "added (s)" "peak RSS (MB)" "received"
b=$(cut -d' ' -f1 "$T/t.base" | med)
fail=0
for n in base grpc proto json file; do
	s=$(cut -d' ' -f1 "$T/t.$n" | med)
	kb=$(cut -d' ' -f2 "$T/t.$n" | sort -n | tail -n 1)
	got=-
	[ -f "$T/rx.$n" ] && got=$(awk -F'"nspans": ' '{split($2, a, /[,}]/); s += a[1]} END {print s + 0}' "$T/rx.$n")
	label=$n
	case $n in
	base) label="no export" ;;
	grpc) label="--otlp (grpc)" ;;
	proto) label="--otlp (http/protobuf)" ;;
	json) label="--otlp (http/json)" ;;
	file) label="--otlp-file" ;;
	esac
	add=$(echo "$s $b" | awk '{printf "%+.2f", $1 - $2}')
	printf '%-26s %10.2f %12s %14.1f %10s\n' "$label" "$s" "$add" "$(echo "$kb" | awk '{print $1/1024}')" "$got"
	if [ "$n" != base ]; then
		echo "$s $b" | awk '{exit !($1 - $2 >= 2.0)}' && { echo "  over the limit: adds 2 s or more"; fail=1; }
		[ "$kb" -ge 30720 ] && { echo "  over the limit: 30 MB"; fail=1; }
	fi
done
echo "(received: spans the receiver decoded over all $RUNS runs; $((SPANS * RUNS)) and more expected)"
exit $fail
