#!/usr/bin/env python3
"""ProbeOS's grep against the host's GNU grep, on generated patterns.

Usage: grep_differential.py TOOL [--seed N] [--count N] [--cases FILE]

  TOOL     build/host/grep_tool: ProbeOS's grep on the host (grep_tool.c)
  --seed   the generator's seed (default 35, the issue's number)
  --count  how many patterns to generate (default 3000)
  --cases  the regression cases, replayed first (default
           grep_differential_cases.txt beside this file)

Each case is a pattern, grep's options (-E or not, -i, -w, -v, -c: the
ones ProbeOS's grep has) and a few lines of text, given to ProbeOS's grep
and to `LC_ALL=C grep` (the C locale: ProbeOS has only its classes).
Where GNU refuses the pattern (exit status 2, a message), ProbeOS must
refuse it too (its one line "grep: ..."), and in GNU's words unless it
is one of ProbeOS's own refusals (OWN_WORDS). Otherwise both must print
the same lines. ProbeOS's commands have no exit status, so GNU's 0 and 1
are compared through the lines printed.

The patterns are random BREs and EREs over a small alphabet: every
operator, sets, anchors, repetitions after anything (anchors too),
groups, alternation and escapes, half built by a grammar and half as
loose strings of tokens, which makes malformed ones. The known
differences (KNOWN_DIFFERENCES) are skipped and counted by name.

Prints the seed, each mismatch whole (pattern, options, input, both
answers, and the commands that reproduce it), then
"grep_differential: N cases compared, M mismatches", and exits with 1
if there was one. A host with no GNU grep prints
"grep_differential: skipped: ..." and exits with 0.
"""

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "grep_differential_cases.txt")
GNU_ENV = dict(os.environ, LC_ALL="C")
# GNU grep answers these patterns in milliseconds: one that takes longer
# has met its DFA's growth (see Grammar.piece), and is counted under
# "GNU too slow".
GNU_TIMEOUT = 10

# ProbeOS's refusals in its own words (lib/regex.c, docs/shell.md):
# where GNU refuses too, only the refusal is compared, not the words.
OWN_WORDS = (
    "Groups nested too deep",
    "back-references (\\1 to \\9) are not supported",
)

# ---- The generator ----

# Word characters (letters of both cases, _) and others, so that \b, \<,
# -w and -i have something to tell apart. No digit: \1 would be a
# back-reference, which ProbeOS refuses.
ALPHABET = "aAbB_ -"
WORDS = ["a", "ab", "Ab", "b_a", "aB", "ba"]

# Pieces of a pattern for the loose strings, BRE then ERE: characters,
# sets (good and broken), anchors, escapes, operators and counts (good,
# empty, reversed, unclosed), group and alternation marks.
# One collating element only: GNU matches those patterns otherwise (see
# KNOWN_DIFFERENCES), so most of them would be skipped.
COMMON_TOKENS = [
    "a", "b", "A", "B", "_", " ", "-", ".", "^", "$",
    "[ab]", "[^a]", "[a-b]", "[]a]", "[^]b]", "[[:alpha:]]", "[[:upper:]_]",
    "[[:space:]]", "[[.a.]]", "[b-a]", "[[:nope:]]", "[:alpha:]", "[", "]",
    "\\<", "\\>", "\\b", "\\B", "\\`", "\\'", "\\w", "\\W", "\\s", "\\S",
    "\\.", "\\*", "\\[", "\\]", "\\^", "\\$", "\\\\", "\\a", "\\-", "\\",
    "*", "+", "?", "{", "}", "|", "(", ")",
]
BRE_TOKENS = COMMON_TOKENS + [
    "\\+", "\\?", "\\{1\\}", "\\{,2\\}", "\\{1,\\}", "\\{0,1\\}", "\\{2\\}",
    "\\{\\}", "\\{2,1\\}", "\\{a\\}", "\\{1", "\\{", "\\}", "\\(", "\\)", "\\|",
]
ERE_TOKENS = COMMON_TOKENS + [
    "{1}", "{,2}", "{1,}", "{0,1}", "{2}", "{}", "{2,1}", "{a}", "{1", "{,",
    "\\{", "\\}", "\\(", "\\)", "\\|", "\\+", "\\?",
]

BRE_REPEATS = ["*", "\\+", "\\?", "\\{,2\\}", "\\{1\\}", "\\{1,\\}", "\\{0,2\\}", "\\{2\\}"]
ERE_REPEATS = ["*", "+", "?", "{,2}", "{1}", "{1,}", "{0,2}", "{2}"]
ANCHORS = ["^", "$", "\\<", "\\>", "\\b", "\\B", "\\`", "\\'"]
SETS = ["[ab]", "[^a]", "[a-b]", "[]a]", "[^]_]", "[[:alpha:]]", "[[:lower:]]",
        "[[:upper:] ]", "[[:alnum:]_]", "[[:punct:]]", "[-a]", "[a-]"]
ESCAPES = ["\\w", "\\W", "\\s", "\\S", "\\.", "\\*", "\\[", "\\-"]


class Grammar:
    """Well-formed expressions, nested a few groups deep."""

    def __init__(self, rng, ere):
        self.rng = rng
        self.ere = ere

    def atom(self, depth):
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice("aAbB_ -")
        if r < 0.45:
            return "."
        if r < 0.55:
            return self.rng.choice(SETS)
        if r < 0.72:
            return self.rng.choice(ANCHORS)
        if r < 0.80:
            return self.rng.choice(ESCAPES)
        if depth < 2:
            inner = self.alternation(depth + 1)
            return "(" + inner + ")" if self.ere else "\\(" + inner + "\\)"
        return self.rng.choice("ab")

    def piece(self, depth):
        # At most two operators, the second no count, and no count on a
        # group: counts on counts in nested groups make GNU's DFA grow
        # past any time limit.
        text = self.atom(depth)
        repeats = ERE_REPEATS if self.ere else BRE_REPEATS
        if text.endswith(")"):
            repeats = repeats[:3]
        if self.rng.random() < 0.35:
            text += self.rng.choice(repeats)
            if self.rng.random() < 0.35:
                text += self.rng.choice(repeats[:3])
        return text

    def branch(self, depth):
        # A branch may start with an operator: it repeats nothing, or is
        # a literal, as GNU reads it.
        lead = self.rng.choice(["*", "+" if self.ere else "\\+"]) \
            if self.rng.random() < 0.05 else ""
        return lead + "".join(self.piece(depth)
                              for _ in range(self.rng.randint(0, 4)))

    def alternation(self, depth):
        bar = "|" if self.ere else "\\|"
        n = 1 if self.rng.random() < 0.7 else self.rng.randint(2, 3)
        return bar.join(self.branch(depth) for _ in range(n))


def loose_pattern(rng, ere):
    """A string of tokens that need not make sense."""
    tokens = ERE_TOKENS if ere else BRE_TOKENS
    return "".join(rng.choice(tokens) for _ in range(rng.randint(0, 7)))


def random_line(rng):
    r = rng.random()
    if r < 0.15:
        return ""
    if r < 0.45:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 6)))


def random_case(rng):
    ere = rng.random() < 0.5
    if rng.random() < 0.5:
        pattern = Grammar(rng, ere).alternation(0)
    else:
        pattern = loose_pattern(rng, ere)
    options = ["-E"] if ere else []
    for option, chance in (("-i", 0.25), ("-w", 0.3), ("-v", 0.15), ("-c", 0.15)):
        if rng.random() < chance:
            options.append(option)
    lines = [random_line(rng) for _ in range(rng.randint(3, 8))]
    text = "\n".join(lines) + ("\n" if rng.random() < 0.9 else "")
    return {"options": options, "pattern": pattern, "input": text}


# ---- Known differences ----

def group_depth(pattern, ere):
    """How deep the groups of pattern nest, read loosely."""
    depth = deepest = 0
    opening = "(" if ere else "\\("
    closing = ")" if ere else "\\)"
    i = 0
    while i < len(pattern):
        if pattern.startswith(opening, i):
            depth += 1
            deepest = max(deepest, depth)
        elif pattern.startswith(closing, i):
            depth = max(depth - 1, 0)
        i += 2 if pattern[i] == "\\" else 1
    return deepest


def ere_unmatched_paren(case):
    """An ERE with a ) that closes no group, read loosely (sets and
    escapes skipped): ProbeOS reads it as a literal, as GNU does without
    -w; with -w GNU puts the pattern inside a group of its own, which
    that ) then closes."""
    if "-E" not in case["options"] or "-w" not in case["options"]:
        return False
    p, depth, i = case["pattern"], 0, 0
    while i < len(p):
        if p[i] == "\\":
            i += 2
            continue
        if p[i] == "[":
            end = p.find("]", i + 2)
            i = end + 1 if end > 0 else len(p)
            continue
        if p[i] == "(":
            depth += 1
        elif p[i] == ")":
            if depth == 0:
                return True
            depth -= 1
        i += 1
    return False


# Each: a name, why ProbeOS differs (documented in docs/shell.md), and
# what picks the cases out: before the run, from the case alone (the
# generator makes few or none of them), or after it, from the answers
# (ProbeOS's output, GNU's (status, stdout, stderr)). A skipped case is
# counted under its name, never silently.
KNOWN_DIFFERENCES = [
    ("back-references",
     "ProbeOS refuses \\1 to \\9 (its matcher has no back-references)",
     lambda case: any("\\" + d in case["pattern"] for d in "123456789"), None),
    ("groups 33 deep",
     "ProbeOS refuses groups nested deeper than REGEX_MAX_DEPTH (32); GNU takes them",
     lambda case: group_depth(case["pattern"], "-E" in case["options"]) > 32, None),
    ("-E -w and a stray )",
     "GNU's -w wraps the pattern in a group, which a stray ) then closes",
     ere_unmatched_paren, None),
    ("collating elements",
     "GNU matches a pattern with [.c.] or [=c=] with its regex matcher, not its DFA, "
     "and the two read the forms POSIX leaves open (an operator with nothing before it) "
     "differently; ProbeOS takes the DFA's reading throughout",
     lambda case: "[." in case["pattern"] or "[=" in case["pattern"], None),
    ("-v -c and an empty pattern",
     "GNU grep 3.8 sees that -v with the empty pattern selects nothing and stops before "
     "reading, printing no count; ProbeOS prints 0",
     lambda case: case["pattern"] == "" and "-v" in case["options"]
     and "-c" in case["options"] and "-w" not in case["options"], None),
    ("too big",
     "ProbeOS's programs hold 2,048 instructions; GNU takes counts to 32,767",
     None, lambda mine, gnu: mine == "grep: Regular expression too big\n"),
    ("GNU too slow",
     "GNU grep's DFA grows with counts inside repeated groups: no answer within GNU_TIMEOUT",
     None, lambda mine, gnu: gnu[0] == -1 and gnu[2].startswith("still running")),
    ("GNU crashes",
     "GNU grep 3.8 aborts on a few -w patterns (\"grep: program error\"): no answer to compare",
     None, lambda mine, gnu: gnu[0] < 0 and "program error" in gnu[2]),
]


def known_difference(case, answers=None):
    """The name of the known difference case falls under, or None; with
    answers (ProbeOS's output and GNU's), the ones told by them too."""
    for name, _why, by_case, by_answers in KNOWN_DIFFERENCES:
        if by_case and by_case(case):
            return name
        if by_answers and answers and by_answers(*answers):
            return name
    return None


# ---- Running both ----

def gnu_grep(case, path):
    """GNU's (status, stdout, stderr) on case, its input in path."""
    try:
        proc = subprocess.run(["grep"] + case["options"] + ["-e", case["pattern"], path],
                              env=GNU_ENV, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=GNU_TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1, "", "still running after %d s" % GNU_TIMEOUT
    return (proc.returncode, proc.stdout.decode("latin-1"),
            proc.stderr.decode("latin-1"))


def probeos_grep(tool, cases, paths):
    """ProbeOS's output for every case, in one run of the tool."""
    request = bytearray()
    for case, path in zip(cases, paths):
        args = [path] + case["options"] + ["-e", case["pattern"]]
        request += b"%d\n" % len(args)
        for arg in args:
            request += arg.encode("latin-1") + b"\0"
    proc = subprocess.run([tool, "--batch"], input=bytes(request),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=300)
    if proc.returncode != 0:
        sys.exit("grep_tool failed (status %d):\n%s"
                 % (proc.returncode, proc.stderr.decode("latin-1")))
    out, answers, at = proc.stdout, [], 0
    for _ in cases:
        newline = out.index(b"\n", at)
        length = int(out[at:newline])
        answers.append(out[newline + 1:newline + 1 + length].decode("latin-1"))
        at = newline + 1 + length
    return answers


def refusal(mine):
    """ProbeOS's reason for refusing the pattern, or None: a refusal is
    its one line "grep: ...", which no line of the inputs can be."""
    if mine.startswith("grep: ") and mine.count("\n") == 1:
        return mine[len("grep: "):-1]
    return None


def compare(case, gnu, mine):
    """None if ProbeOS answered as GNU did, else what differs."""
    status, out, err = gnu
    why = refusal(mine)
    if status == 2:
        if why is None:
            return "GNU refuses the pattern, ProbeOS does not"
        gnu_why = err.strip().splitlines()[-1] if err.strip() else ""
        if why not in OWN_WORDS and gnu_why != "grep: " + why:
            return "both refuse, in other words"
        return None
    if status not in (0, 1):
        return "GNU grep exited with status %d" % status
    if why is not None:
        return "ProbeOS refuses the pattern, GNU does not"
    return None if out == mine else "the lines printed differ"


def report(case, gnu, mine, what):
    status, out, err = gnu
    options = " ".join(case["options"])
    pattern = shlex.quote(case["pattern"])
    print("MISMATCH: %s" % what)
    print("  pattern:  %r" % case["pattern"])
    print("  options:  %s" % (options or "(none)"))
    print("  input:    %r" % case["input"])
    print("  GNU:      status %d, stdout %r, stderr %r" % (status, out, err))
    print("  ProbeOS:  %r" % mine)
    print("  case:     %s" % json.dumps(case))
    print("  again:    printf %%s %s > in; LC_ALL=C grep %s -e %s in; "
          "build/host/grep_tool in %s -e %s"
          % (shlex.quote(case["input"]), options, pattern, options, pattern))


def read_cases(path):
    """The regression cases: one JSON object a line ({"options": [...],
    "pattern": ..., "input": ...}), # for comments."""
    with open(path) as f:
        return [json.loads(line) for line in f
                if line.strip() and not line.startswith("#")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tool")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--cases", default=CASES)
    args = parser.parse_args()

    try:
        version = subprocess.run(["grep", "--version"], stdout=subprocess.PIPE,
                                 text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        version = ""
    if "GNU grep" not in version:
        print("grep_differential: skipped: the host's grep is not GNU's")
        return 0
    print("grep_differential: %s, seed %d, %d patterns after the cases of %s"
          % (version, args.seed, args.count, os.path.basename(args.cases)))

    rng = random.Random(args.seed)
    cases = read_cases(args.cases) + [random_case(rng) for _ in range(args.count)]
    skipped = {}
    to_run = []
    for case in cases:
        name = known_difference(case)
        if name:
            skipped[name] = skipped.get(name, 0) + 1
        else:
            to_run.append(case)

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for i, case in enumerate(to_run):
            paths.append(os.path.join(folder, "in%d" % i))
            with open(paths[-1], "w", encoding="latin-1") as f:
                f.write(case["input"])
        answers = probeos_grep(args.tool, to_run, paths)
        compared = mismatches = 0
        for case, path, mine in zip(to_run, paths, answers):
            gnu = gnu_grep(case, path)
            name = known_difference(case, (mine, gnu))
            if name:
                skipped[name] = skipped.get(name, 0) + 1
                continue
            compared += 1
            what = compare(case, gnu, mine)
            if what:
                mismatches += 1
                report(case, gnu, mine, what)

    for name, why, _by_case, _by_answers in KNOWN_DIFFERENCES:
        print("  skipped %d: %s (%s)" % (skipped.get(name, 0), name, why))
    print("grep_differential: %d cases compared, %d mismatches" % (compared, mismatches))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
