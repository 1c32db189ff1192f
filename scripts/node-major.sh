# Sourced by scripts that need Node.js 20 or later (setup-deps.sh, e2e/run.sh): node_major is
# the major version of the `node` on PATH, 0 when there is none.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[[ "$node_major" =~ ^[0-9]+$ ]] || node_major=0
