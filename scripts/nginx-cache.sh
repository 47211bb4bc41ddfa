#!/usr/bin/env bash
# A real shared cache in front of the SEP-2792 reference server (issue 9).
#
# Starts `mcp-lang serve --http` and Debian's nginx on 127.0.0.1 only, with
# `proxy_cache` configured as an MCP operator would for POST (POST caching, the
# request body in the key), and checks with curl, through `X-Cache-Status`:
#
#   A  key = method + URI + body, Accept-Language passed through:
#      a repeat is a HIT in its own language; another preference is a MISS.
#   C  key = method + URI only (no body), Accept-Language passed through:
#      only `Vary: Accept-Language` keeps the variants apart; no response is
#      ever another preference's variant.
#   B  key = method + URI + body, Accept-Language stripped by the proxy
#      (`proxy_set_header Accept-Language ""`), `_meta` kept: the server answers
#      `Cache-Control: private`, which nginx never stores (never a HIT).
#
# Installs nginx (nginx-light) with apt-get when missing. Writes everything
# under target/nginx-cache/, stops both servers on exit. Exit status 0 when
# every check passes.
#
# Usage: scripts/nginx-cache.sh [--release] [--fault NAME]
#   --fault NAME  serve with an injected fault (`mcp-lang serve --fault`), to see
#                 the checks fail: e.g. drop-vary, public-when-stripped.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/target/nginx-cache"
profile=debug
fault=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --release) profile=release ;;
        --fault) fault=(--fault "$2"); shift ;;
        *) echo "usage: $0 [--release] [--fault NAME]" >&2; exit 2 ;;
    esac
    shift
done

log() { printf '%s\n' "$*" >&2; }

# --- nginx -------------------------------------------------------------------
nginx_bin="$(command -v nginx || true)"
[[ -z "$nginx_bin" && -x /usr/sbin/nginx ]] && nginx_bin=/usr/sbin/nginx
if [[ -z "$nginx_bin" ]]; then
    log "nginx not found: installing nginx-light with apt-get"
    sudo=""
    [[ "$(id -u)" != 0 ]] && sudo="sudo"
    # Keep the package from starting the system nginx on port 80: a policy-rc.d
    # that refuses service starts, only for the install, unless one exists.
    made_policy=""
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        made_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -q nginx-light >/dev/null 2>&1 \
        || { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q nginx-light >/dev/null; }
    [[ -n "$made_policy" ]] && $sudo rm -f /usr/sbin/policy-rc.d
    nginx_bin=/usr/sbin/nginx
fi
log "nginx: $("$nginx_bin" -v 2>&1)"

# --- the reference server ----------------------------------------------------
cargo_flags=(-q -p mcp-lang-cli --bin mcp-lang)
[[ "$profile" == release ]] && cargo_flags+=(--release)
(cd "$root" && cargo build "${cargo_flags[@]}")
mcp_lang="$root/target/$profile/mcp-lang"

rm -rf "$work"
mkdir -p "$work"/{cache,temp,logs}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

server_pid=""
nginx_started=""
cleanup() {
    [[ -n "$nginx_started" ]] && "$nginx_bin" -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

backend_port="$(free_port)"
RUST_LOG=warn "$mcp_lang" serve --http "127.0.0.1:$backend_port" "${fault[@]}" 2>"$work/logs/mcp-lang.log" &
server_pid=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$backend_port/mcp" && break
    sleep 0.1
done

port_a="$(free_port)"; port_b="$(free_port)"; port_c="$(free_port)"
cat > "$work/nginx.conf" <<CONF
# Written by scripts/nginx-cache.sh: nginx on loopback in front of
# mcp-lang serve --http 127.0.0.1:$backend_port.
worker_processes 1;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log $work/logs/access.log;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;

    # One cache per proxy, as three separate deployments would have.
    proxy_cache_path $work/cache/a levels=1:2 keys_zone=a:1m max_size=64m inactive=10m use_temp_path=off;
    proxy_cache_path $work/cache/b levels=1:2 keys_zone=b:1m max_size=64m inactive=10m use_temp_path=off;
    proxy_cache_path $work/cache/c levels=1:2 keys_zone=c:1m max_size=64m inactive=10m use_temp_path=off;

    # What every cached MCP location shares: POST is cacheable, a 200 is kept
    # 10 minutes unless the response says otherwise (private, no-store, ...),
    # and the body is read into memory so \$request_body can be in the key.
    proxy_http_version 1.1;
    proxy_cache_methods GET HEAD POST;
    proxy_cache_valid 200 10m;
    client_body_buffer_size 1m;
    client_max_body_size 1m;
    add_header X-Cache-Status \$upstream_cache_status always;

    # A: key on the body, Accept-Language passed through.
    server {
        listen 127.0.0.1:$port_a;
        location /mcp {
            proxy_cache a;
            proxy_cache_key "\$request_method \$request_uri \$request_body";
            proxy_pass http://127.0.0.1:$backend_port;
        }
    }
    # B: key on the body, Accept-Language stripped by the proxy (_meta kept).
    server {
        listen 127.0.0.1:$port_b;
        location /mcp {
            proxy_cache b;
            proxy_cache_key "\$request_method \$request_uri \$request_body";
            proxy_set_header Accept-Language "";
            proxy_pass http://127.0.0.1:$backend_port;
        }
    }
    # C: a careless key without the body; only Vary keeps variants apart.
    server {
        listen 127.0.0.1:$port_c;
        location /mcp {
            proxy_cache c;
            proxy_cache_key "\$request_method \$request_uri";
            proxy_pass http://127.0.0.1:$backend_port;
        }
    }
}
CONF
"$nginx_bin" -p "$work" -c "$work/nginx.conf" -t 2>"$work/logs/config-test.log" \
    || { cat "$work/logs/config-test.log" >&2; exit 1; }
"$nginx_bin" -p "$work" -c "$work/nginx.conf"
nginx_started=1
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port_a/" && break
    sleep 0.1
done

# --- the checks --------------------------------------------------------------
failures=0
hits=0
n=0
printf '| # | proxy | preference | X-Cache-Status | contentLanguage | Content-Language | Cache-Control | verdict |\n'
printf '|---|---|---|---|---|---|---|---|\n'

# field NAME: every line of that response field, joined with '|'.
field() {
    { grep -i "^$1:" "$work/headers" || true; } | tr -d '\r' | cut -d' ' -f2- | paste -sd'|' -
}

# request PORT LABEL PREFERENCE EXPECTED_TAG ALLOWED_STATUSES
request() {
    local port="$1" label="$2" pref="$3" expected="$4" allowed="$5"
    n=$((n + 1))
    local body
    body="$(jq -cn --arg p "$pref" '{jsonrpc:"2.0",id:1,method:"tools/list",params:{_meta:{"io.modelcontextprotocol/acceptLanguage":$p}}}')"
    curl -s -D "$work/headers" -o "$work/body" \
        -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' \
        -H 'MCP-Protocol-Version: 2025-11-25' \
        -H "Accept-Language: $pref" \
        --data-binary "$body" "http://127.0.0.1:$port/mcp"
    local status tag header cc
    status="$(field x-cache-status)"
    tag="$(jq -r '.result._meta["io.modelcontextprotocol/contentLanguage"] // "-"' "$work/body" 2>/dev/null || echo -)"
    header="$(field content-language)"
    cc="$(field cache-control)"
    local verdict=ok
    if [[ "$label" == B* && "$cc" != *private* ]]; then verdict="FAIL: not private"; fi
    [[ " $allowed " == *" ${status:-none} "* ]] || verdict="FAIL: cache status not in {$allowed}"
    [[ "$header" == "$expected" ]] || verdict="FAIL: Content-Language"
    [[ "$tag" == "$expected" ]] || verdict="FAIL: wrong variant"
    [[ "$status" == HIT ]] && hits=$((hits + 1))
    [[ "$verdict" == ok ]] || failures=$((failures + 1))
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$label" "$pref" "${status:--}" "$tag" "${header:--}" "${cc:--}" "$verdict"
}

fr='fr-CA,fr;q=0.9,en;q=0.5'
de='de-AT, en;q=0.5'
request "$port_a" "A body key" "$fr" fr-CA MISS
request "$port_a" "A body key" "$fr" fr-CA HIT
request "$port_a" "A body key" "$de" de MISS
request "$port_a" "A body key" "$de" de HIT
request "$port_a" "A body key" "$fr" fr-CA HIT

# C: the key is the same for every preference; nginx compares the stored
# variant's Vary'd request headers and never answers with the other one.
request "$port_c" "C no body in key" "$fr" fr-CA MISS
request "$port_c" "C no body in key" "$fr" fr-CA HIT
request "$port_c" "C no body in key" "$de" de MISS
request "$port_c" "C no body in key" "$de" de HIT
request "$port_c" "C no body in key" "$fr" fr-CA "HIT MISS"
request "$port_c" "C no body in key" "ja" ja MISS

# B: header stripped by the proxy: private, never stored.
request "$port_b" "B header stripped" "$fr" fr-CA MISS
request "$port_b" "B header stripped" "$fr" fr-CA MISS
request "$port_b" "B header stripped" "$de" de MISS
request "$port_b" "B header stripped" "$de" de MISS

cached_files="$(find "$work/cache" -type f | wc -l)"
stripped_files="$(find "$work/cache/b" -type f | wc -l)"
if [[ "$stripped_files" -ne 0 ]]; then
    log "FAIL: the header-stripped proxy stored $stripped_files response(s)"
    failures=$((failures + 1))
fi
printf '\n%s requests, %s cache hits, %s files in the cache, %s failures (nginx %s)\n' \
    "$n" "$hits" "$cached_files" "$failures" "$("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///')"
[[ "$hits" -gt 0 ]] || { log "no cache hit at all: the cache is not working, the checks prove nothing"; exit 1; }
[[ "$failures" -eq 0 ]]
