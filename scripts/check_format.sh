#!/usr/bin/env bash
# Checks that every C and C++ file git tracks is formatted by .clang-format (clang-format 14, as
# Debian ships it): prints the files that are not and exits 1. `scripts/check_format.sh --fix`
# formats them in place. CTest runs the check (test `format`); exit 77 (skipped) without
# clang-format.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
[[ -n "$formatter" ]] || { echo "check_format: no clang-format" >&2; exit 77; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc' 2>/dev/null ||
                     find core native wasm tests bench tools -name '*.[ch]pp' -o -name '*.h')
if [[ "${1:-}" == "--fix" ]]; then
  "$formatter" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$formatter" --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if ((${#bad[@]})); then
  printf 'not formatted: %s\n' "${bad[@]}"
  echo "check_format: ${#bad[@]} file(s); scripts/check_format.sh --fix formats them"
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
