#!/usr/bin/env bash
# Vendors the GraphiQL page's assets into graph/graphiql/assets, so that the page at /
# works with no network: the built files of the npm packages below, at exact versions,
# with their licences, and a MANIFEST of each file's package, version, path in the
# package and SHA-256. graph/graphiql's tests check the embedded files against the
# MANIFEST. To upgrade, change a version here, run this script, then run
# `go test ./graph/graphiql/ ./cmd/arbiter/ -run GraphiQL` (the second needs Chromium).
#
# graphiql 4 is the last major version with a UMD build that runs from plain <script>
# tags; it needs React and ReactDOM 18 as globals.
set -euo pipefail
cd "$(dirname "$0")/.."

# package@version  path in the package  file name in assets/
files=(
  "graphiql@4.1.2   graphiql.min.js                   graphiql.min.js"
  "graphiql@4.1.2   graphiql.min.css                  graphiql.min.css"
  "graphiql@4.1.2   LICENSE                           graphiql.LICENSE"
  "react@18.2.0     umd/react.production.min.js       react.production.min.js"
  "react@18.2.0     LICENSE                           react.LICENSE"
  "react-dom@18.2.0 umd/react-dom.production.min.js   react-dom.production.min.js"
  "react-dom@18.2.0 LICENSE                           react-dom.LICENSE"
)

out=graph/graphiql/assets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

packages=$(printf '%s\n' "${files[@]}" | awk '{print $1}' | sort -u)
for p in $packages; do
  mkdir -p "$tmp/$p"
  (cd "$tmp" && npm pack --silent "$p" >/dev/null)
  tar -xzf "$tmp/$(printf '%s' "$p" | sed 's/@/-/').tgz" -C "$tmp/$p"
done

rm -rf "$out"
mkdir -p "$out"
{
  echo "# Written by scripts/vendor-graphiql.sh: do not edit. One file a line:"
  echo "# name  package@version  path-in-package  sha256"
  for f in "${files[@]}"; do
    read -r pkg src name <<<"$f"
    cp "$tmp/$pkg/package/$src" "$out/$name"
    printf '%s %s %s %s\n' "$name" "$pkg" "$src" "$(sha256sum "$out/$name" | cut -d' ' -f1)"
  done
} >"$out/MANIFEST"
echo "vendored into $out:"
cat "$out/MANIFEST"
