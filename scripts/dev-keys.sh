#!/usr/bin/env bash
# Development keys for `make run`: for each circuit of DIGESTS (the JSON of `enygma info
# --circuit all --digest`) whose key files are missing from KEYS_DIR or were made for another
# R1CS (KEYS_DIR/circuit-digests.json, written after each successful setup, remembers the
# digests the keys were made for) or are of another key file format than the binary's (`enygma
# version`'s key_format), runs `enygma setup` for that circuit alone.
#   scripts/dev-keys.sh ENYGMA DIGESTS KEYS_DIR
set -euo pipefail
enygma=$1 digests=$2 dir=$3
mkdir -p "$dir"
made="$dir/circuit-digests.json"
[[ -f "$made" ]] || echo '[]' >"$made"
# "circuit digest" lines of the wanted circuits that are not already made as such.
format=$("$enygma" version | python3 -c 'import json, sys; print(json.load(sys.stdin)["key_format"])')
stale=$(python3 - "$digests" "$made" "$dir" "$format" <<'PY'
import json, os, sys
def version(path):  # the key file header's u32 at offset 8
    with open(path, "rb") as f:
        head = f.read(12)
    return int.from_bytes(head[8:12], "little") if len(head) == 12 else None
want = json.load(open(sys.argv[1]))
want = want if isinstance(want, list) else [want]
have = json.load(open(sys.argv[2]))
have = {c["circuit"]: c["digest"] for c in (have if isinstance(have, list) else [have])}
for c in want:
    files = [os.path.join(sys.argv[3], c["circuit"] + ext) for ext in (".pk", ".vk")]
    if (have.get(c["circuit"]) != c["digest"] or not all(map(os.path.exists, files))
            or any(version(f) != int(sys.argv[4]) for f in files)):
        print(c["circuit"])
PY
)
for circuit in $stale; do
  echo "keys: making development keys for $circuit in $dir"
  "$enygma" setup --circuit "$circuit" --out "$dir" >/dev/null
  python3 - "$digests" "$made" "$circuit" <<'PY'
import json, os, sys
want = json.load(open(sys.argv[1]))
want = want if isinstance(want, list) else [want]
have = json.load(open(sys.argv[2]))
have = [c for c in have if c["circuit"] != sys.argv[3]]
have += [c for c in want if c["circuit"] == sys.argv[3]]
# Whole or not at all (a run cut off mid-write left a file that every later run failed to read).
with open(sys.argv[2] + ".tmp", "w") as f:
    json.dump(have, f, indent=0)
os.replace(sys.argv[2] + ".tmp", sys.argv[2])
PY
done
