#!/usr/bin/env python3
"""Write the tree of a bare git mirror's commit into a folder, blob by blob.

Usage: corpus-extract.py GIT_DIR COMMIT DEST

Unlike `git archive`, this survives blobs that are absent from a partial
snapshot: they are skipped and counted. Symbolic links and submodules are
skipped too (counted). Fetches nothing.
"""
import os, shutil, subprocess, sys

def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    git_dir, commit, dest = sys.argv[1:]
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    tree = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", commit],
                          check=True, capture_output=True).stdout
    entries = []
    skipped_links = skipped_modules = 0
    for rec in tree.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split(b" ")
        if kind != b"blob":
            skipped_modules += 1
            continue
        if mode == b"120000":
            skipped_links += 1
            continue
        entries.append((sha.decode(), path.decode("utf-8", "surrogateescape")))
    proc = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    written = missing = 0
    for sha, path in entries:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing += 1
            continue
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)  # trailing newline
        norm = os.path.normpath(path)
        if norm.startswith("..") or os.path.isabs(norm):
            missing += 1
            continue
        target = os.path.join(dest, norm)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        written += 1
    proc.stdin.close()
    proc.wait()
    print(f"{dest}: {written} files written, {missing} missing blobs skipped, "
          f"{skipped_links} symlinks skipped, {skipped_modules} submodules skipped")
    return 0

if __name__ == "__main__":
    sys.exit(main())
