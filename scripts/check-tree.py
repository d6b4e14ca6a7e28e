#!/usr/bin/env python3
"""The repo checks itself around `make test` (#51 item 6): a test that leaves a file in the tree (six
SQLite files named `?schema=t_…`, 8.8 MB, were once committed from a crash test that ran on the wrong
store) fails the run, as does a tracked file over 2 MB outside docs/images and Samples.

    check-tree.py start       remember what `git status` says before the run (in .build/)
    check-tree.py end         fail on anything new since, and on tracked files over 2 MB
    check-tree.py self-test   both checks against a scratch repository: a left file and a big one fail"""

import os
import subprocess
import sys
import tempfile

LIMIT = 2 * 1024 * 1024
# Pictures of the pages and the sample venues (a 20,000-seat arena is data the tests read).
ALLOWED_BIG = ("docs/images/", "Samples/")
STATE = os.path.join(".build", "tree-at-start")


# Where a run writes on purpose (builds, screenshots, the resolved packages); anything else it leaves,
# ignored by .gitignore or not (a `*.db` is ignored so it is never committed, and still caught here), fails.
OUTPUTS = ("!! .build/", "!! .swiftpm/", "!! artifacts/", "!! Package.resolved")


def status(root):
    out = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored"], cwd=root, check=True,
                         capture_output=True).stdout.decode()
    # Python's byte-code caches are the interpreter's, wherever it ran.
    return set(entry for entry in out.split("\0") if entry and not entry.startswith(OUTPUTS) and not entry.endswith("__pycache__/"))


def big_files(root):
    names = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True).stdout.decode().split("\0")
    out = []
    for name in filter(None, names):
        path = os.path.join(root, name)
        if not name.startswith(ALLOWED_BIG) and os.path.isfile(path) and os.path.getsize(path) > LIMIT:
            out.append(f"{name} ({os.path.getsize(path) / 1048576:.1f} MB)")
    return out


def start(root):
    os.makedirs(os.path.join(root, ".build"), exist_ok=True)
    with open(os.path.join(root, STATE), "w") as f:
        f.write("\0".join(sorted(status(root))))


def end(root):
    """The problems found, one line each (none: the tree is as the run found it)."""
    try:
        with open(os.path.join(root, STATE)) as f:
            before = set(filter(None, f.read().split("\0")))
    except FileNotFoundError:
        return [f"no {STATE}: run `check-tree.py start` before the tests"]
    problems = [f"the run left {entry[3:]!r} ({entry[:2].strip()})" for entry in sorted(status(root) - before)]
    problems += [f"tracked file over 2 MB: {name}" for name in big_files(root)]
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        git = lambda *a: subprocess.run(["git", *a], cwd=root, check=True, capture_output=True)
        git("init", "-q")
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "root")
        open(os.path.join(root, ".gitignore"), "w").write(".build/\n")
        start(root)
        assert end(root) == [], end(root)
        open(os.path.join(root, "?schema=t_1"), "w").write("left by a test")
        found = end(root)
        assert len(found) == 1 and "?schema=t_1" in found[0], found
        os.remove(os.path.join(root, "?schema=t_1"))
        open(os.path.join(root, ".gitignore"), "a").write("*.db*\n")
        start(root)
        open(os.path.join(root, "left.db-wal"), "w").write("ignored, and still left by a test")
        found = end(root)
        assert len(found) == 1 and "left.db-wal" in found[0], found
        os.makedirs(os.path.join(root, ".build", "debug"), exist_ok=True)
        open(os.path.join(root, ".build", "debug", "x"), "w").write("a build's own output")
        assert end(root) == found, end(root)
        os.remove(os.path.join(root, "left.db-wal"))
        with open(os.path.join(root, "big.bin"), "wb") as f:
            f.write(b"\0" * (LIMIT + 1))
        git("add", "big.bin")
        start(root)
        found = end(root)
        assert found == ["tracked file over 2 MB: big.bin (2.0 MB)"], found
    print("check-tree: a left file, an ignored left file and a big tracked file each fail; a build's output does not")


if __name__ == "__main__":
    here = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True).stdout.decode().strip()
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "start":
        start(here)
    elif command == "end":
        problems = end(here)
        for p in problems:
            print(f"check-tree: {p}", file=sys.stderr)
        if problems:
            sys.exit(1)
        print("check-tree: the run left the tree as it found it; no tracked file over 2 MB")
    elif command == "self-test":
        self_test()
    else:
        sys.exit(__doc__)
