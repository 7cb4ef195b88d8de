#!/usr/bin/env bash
# Fetches the real agent CLIs the agent tests drive against loopback model servers (Claude Code,
# Codex, Gemini CLI, opencode), pinned, into the gitignored .ci/agents: npm packages, their
# native binaries included. Claude Code's postinstall may be refused; its binary runs anyway.
# Beside them, the MCP Inspector, whose CLI mode is the independent client of the protocol test
# of `squash mcp`.
#
# Usage: scripts/fetch-agents.sh [DIR]   (DIR defaults to .ci/agents in the repository)
# Does nothing when DIR already holds these pins. Needs npm.
# The tests find them through SQUASH_{CLAUDE,CODEX,GEMINI,OPENCODE,MCP_INSPECTOR}_BIN=DIR/node_modules/.bin/…
set -euo pipefail

PINS=(@anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0
  opencode-ai@1.18.33 @modelcontextprotocol/inspector@2.12.0)

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/.ci/agents}"
bins="$dir/node_modules/.bin"

# Whether every pinned package is installed at its version, with its binary.
present() {
  local pin name version installed
  for pin in "${PINS[@]}"; do
    name="${pin%@*}" version="${pin##*@}"
    installed="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$dir/node_modules/$name/package.json" 2>/dev/null | head -1)"
    [[ "$installed" == "$version" ]] || return 1
  done
  for bin in claude codex gemini opencode mcp-inspector; do [[ -x "$bins/$bin" ]] || return 1; done
}

if present; then
  echo "agent CLIs already present: $bins"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm is needed to fetch the agent CLIs" >&2; exit 1; }
# opencode installs its provider package (@ai-sdk/openai-compatible) from npm when it first runs.
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${PINS[@]}"
echo "agent CLIs in $bins"
