#!/bin/sh
# Runs the PostgreSQL adapter's tests (and any go test flags given) while the module's
# go.mod does not require github.com/jackc/pgx/v5: it adds the requirement to a copy of
# go.mod in a temporary directory and points -modfile at it, leaving go.mod untouched.
#
#   ARBITER_PG_URL=postgres://postgres@127.0.0.1:5432/test?sslmode=disable eventstore/postgres/test.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/go.mod" "$root/go.sum" "$tmp/"
cd "$root"
GOFLAGS=-mod=mod go get -modfile="$tmp/go.mod" github.com/jackc/pgx/v5@v5.12.0 github.com/jackc/pgx/v5/pgxpool@v5.12.0 >/dev/null 2>&1
go vet -tags postgres -modfile="$tmp/go.mod" ./eventstore/postgres
go test -tags postgres -modfile="$tmp/go.mod" "$@" ./eventstore/postgres
