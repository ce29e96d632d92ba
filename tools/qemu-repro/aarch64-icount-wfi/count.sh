#!/bin/sh
# Boot the reproducer N times (default 20) under the bench's flags for an
# -icount boot with four CPUs (tools/bench.py's qemu_command, on
# arch/aarch64/arch.mk's machine), and count the boots that hang. A boot
# hangs if QEMU spends LIMIT seconds of CPU time (default 20; a boot that
# does not hang needs a few) without printing "done": CPU time, not wall
# time, as the emulator is still running flat out while it hangs and a
# busy host would otherwise pass for a hang. QEMU_EXTRA adds flags.
n=${1:-20}
limit=${LIMIT:-20}
hz=$(getconf CLK_TCK)
out=$(mktemp)
hangs=0
i=1
while [ "$i" -le "$n" ]; do
	qemu-system-aarch64 -accel tcg -smp 4 -M virt -cpu cortex-a72 -m 256M \
		-kernel repro.elf -display none -no-reboot -serial stdio \
		-monitor none -icount shift=0 $QEMU_EXTRA </dev/null >"$out" 2>/dev/null &
	pid=$!
	cpu=0
	while kill -0 "$pid" 2>/dev/null && [ "$cpu" -lt "$limit" ]; do
		sleep 1
		cpu=$(awk -v hz="$hz" '{ sub(/.*\) /, ""); print int(($12 + $13) / hz) }' \
			"/proc/$pid/stat" 2>/dev/null || echo 0)
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if grep -q "repro: done" "$out"; then
		echo "boot $i: done"
	else
		hangs=$((hangs + 1))
		echo "boot $i: hung ($cpu s of CPU time); last line: $(tail -n 1 "$out")"
	fi
	i=$((i + 1))
done
rm -f "$out"
echo "hangs: $hangs of $n"
