#!/usr/bin/env python3
"""Unit tests for tests/run_tests.py's order of parts (stdlib unittest):
which part next_ready lets start, and the order make_parts gives.

Run: python3 -m unittest tests/host/test_run_tests.py   (or run this file)
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import run_tests  # noqa: E402


def part(name, lanes=(), alone=False):
    return run_tests.Part(name, ["true"], r"^$", 1, lanes=lanes, alone=alone)


class NextReady(unittest.TestCase):
    def test_a_busy_lane_is_passed_over(self):
        waiting = [part("boot", ["smp"]), part("up", ["qemu"])]
        self.assertEqual(run_tests.next_ready(waiting, {"smp"}, 1).name, "up")

    def test_a_part_alone_waits_for_nothing_to_run(self):
        waiting = [part("selftest", ["smp"], alone=True), part("host", ["make"])]
        self.assertIsNone(run_tests.next_ready(waiting, {"qemu"}, 1))
        self.assertEqual(run_tests.next_ready(waiting, set(), 0).name, "selftest")

    def test_parts_before_a_part_alone_may_start(self):
        waiting = [part("symtab"), part("selftest", ["smp"], alone=True)]
        self.assertEqual(run_tests.next_ready(waiting, {"qemu"}, 1).name, "symtab")

    def test_nothing_ready(self):
        self.assertIsNone(run_tests.next_ready([part("boot", ["smp"])], {"smp"}, 1))


class Order(unittest.TestCase):
    def test_selftests_alone_then_boot_parts_each_with_a_long_one(self):
        names = [p.name for p in run_tests.make_parts(["x86_64", "aarch64"], None, [])]
        self.assertEqual(names[:8], ["symtab(x86_64)", "symtab(aarch64)",
                                     "boot-selftest(x86_64)", "boot-selftest(aarch64)",
                                     "boot(x86_64)", "boot(aarch64)",
                                     "boot-long(aarch64)", "boot-long(x86_64)"])
        alone = [p.name for p in run_tests.make_parts(["x86_64"], None, []) if p.alone]
        self.assertEqual(alone, ["boot-selftest(x86_64)"])

    def test_named_boot_tests_run_in_one_part(self):
        # --boot-test implies --only boot.
        parts = run_tests.make_parts(["x86_64"], ["boot"], ["sym"])
        self.assertEqual([p.name for p in parts], ["boot(x86_64)"])
        self.assertIn("sym", parts[0].cmd)
        self.assertNotIn("--group", parts[0].cmd)


if __name__ == "__main__":
    unittest.main()
