#!/bin/sh
# Precision of Moat on the corpus of real apps. Fetches nothing.
# Usage: Scripts/corpus-precision.sh [--moat PATH] [--app NAME] [--json-dir DIR] CORPUS_DIR
# CORPUS_DIR holds the checkouts named in Corpus/apps.json. See Corpus/README.md.
exec python3 "$(dirname "$0")/corpus-precision.py" "$@"
