#!/usr/bin/env bash
# A real shared cache in front of the SEP-2792 reference server.
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
# Installs what is missing with apt-get (Debian's nginx-light, or nginx where
# that package no longer exists; curl; jq), as root or through sudo. Writes
# everything under target/nginx-cache/. Runs nginx in the foreground in its own
# process group (`daemon off`), so that on exit, normal or not, both servers are
# stopped, waited for, and checked to be gone: the script leaves no process
# behind. Exit status 0 when every check passes. A gate of `cargo xtask ci`
# (step `nginx`).
#
# Usage: scripts/nginx-cache.sh [--release] [--fault NAME]
#   --fault NAME  serve the fault server instead (`mcp-lang-faults serve --fault`,
#                 the workspace's unpublished fault bench), to see the checks
#                 fail: e.g. drop-vary, public-when-stripped.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/nginx-cache"
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

# --- what the checks need ------------------------------------------------------
nginx_bin="$(command -v nginx || true)"
[[ -z "$nginx_bin" && -x /usr/sbin/nginx ]] && nginx_bin=/usr/sbin/nginx
missing=()
[[ -z "$nginx_bin" ]] && missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v jq >/dev/null || missing+=(jq)
if [[ ${#missing[@]} -gt 0 ]]; then
    log "installing with apt-get: ${missing[*]}"
    sudo=""
    [[ "$(id -u)" != 0 ]] && sudo="sudo"
    # Keep the nginx package from starting the system nginx on port 80: a
    # policy-rc.d that refuses service starts, only for the install, unless one
    # exists.
    made_policy=""
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        made_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    # A fresh machine may have no package lists yet.
    apt-cache show nginx >/dev/null 2>&1 || $sudo apt-get update -q >/dev/null
    packages=()
    for name in "${missing[@]}"; do
        if [[ "$name" == nginx ]]; then
            # nginx-light is Debian 12's smallest nginx with proxy_cache;
            # later releases have only `nginx`.
            if apt-cache show nginx-light >/dev/null 2>&1; then packages+=(nginx-light); else packages+=(nginx); fi
        else
            packages+=("$name")
        fi
    done
    $sudo apt-get install -y -q "${packages[@]}" >/dev/null 2>&1 \
        || { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "${packages[@]}" >/dev/null; }
    [[ -n "$made_policy" ]] && $sudo rm -f /usr/sbin/policy-rc.d
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
fi
log "nginx: $("$nginx_bin" -v 2>&1)"

# --- the reference server ----------------------------------------------------
# With --fault, the same server with one rule broken, from the fault bench.
if [[ ${#fault[@]} -gt 0 ]]; then
    cargo_flags=(-q -p mcp-lang-faults --bin mcp-lang-faults)
    server_bin=mcp-lang-faults
else
    cargo_flags=(-q -p mcp-lang-cli --bin mcp-lang)
    server_bin=mcp-lang
fi
[[ "$profile" == release ]] && cargo_flags+=(--release)
(cd "$root" && cargo build "${cargo_flags[@]}")
mcp_lang="$target/$profile/$server_bin"

rm -rf "$work"
mkdir -p "$work"/{cache,temp,logs}

# A loopback port nothing listens on (the kernel picks the server's own), below the
# kernel's range of ephemeral ports: a port in that range may be the local end of any
# outgoing connection on the machine, which no probe sees and nginx cannot bind.
ephemeral_low="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
[[ "$ephemeral_low" =~ ^[0-9]+$ && "$ephemeral_low" -gt 11024 ]] || ephemeral_low=32768
free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$((10000 + RANDOM % (ephemeral_low - 10000)))
        if [[ " ${taken_ports:-} " == *" $port "* ]]; then
            continue
        fi
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    log "no free port found"
    return 1
}

server_pid=""
nginx_pid=""
# Stops a child and waits for it; with `group`, its whole process group (nginx
# and its worker), killed outright if it has not ended within 5 s.
stop() {
    local pid="$1" group="${2:-}"
    [[ -z "$pid" ]] && return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        if [[ -n "$group" ]]; then kill -KILL -- "-$pid" 2>/dev/null || true; else kill -KILL "$pid" 2>/dev/null || true; fi
    fi
    wait "$pid" 2>/dev/null || true
    if [[ -n "$group" ]] && kill -0 -- "-$pid" 2>/dev/null; then
        kill -KILL -- "-$pid" 2>/dev/null || true
    fi
}
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop "$nginx_pid" group
    stop "$server_pid"
    local left=""
    [[ -n "$nginx_pid" ]] && kill -0 -- "-$nginx_pid" 2>/dev/null && left+=" nginx($nginx_pid)"
    [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null && left+=" mcp-lang($server_pid)"
    if [[ -n "$left" ]]; then
        log "FAIL: processes left behind:$left"
        status=1
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

RUST_LOG=info "$mcp_lang" serve --http "127.0.0.1:0" "${fault[@]}" 2>"$work/logs/mcp-lang.log" &
server_pid=$!
backend_port=""
for _ in $(seq 1 200); do
    backend_port="$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' "$work/logs/mcp-lang.log" | head -1)"
    [[ -n "$backend_port" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/logs/mcp-lang.log" >&2; exit 1; }
    sleep 0.1
done
[[ -n "$backend_port" ]] || { log "the server never said where it listens"; exit 1; }

taken_ports="$backend_port"
port_a="$(free_port)"; taken_ports+=" $port_a"
port_b="$(free_port)"; taken_ports+=" $port_b"
port_c="$(free_port)"
cat > "$work/nginx.conf" <<CONF
# Written by scripts/nginx-cache.sh: nginx on loopback in front of
# mcp-lang serve --http 127.0.0.1:$backend_port.
daemon off;
worker_processes 1;
pid $work/nginx.pid;
$([[ "$(id -u)" == 0 ]] && echo "user root;  # as root, the worker must write the caches here too")
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
# Its own process group (setsid), so that cleanup can end it and its worker.
setsid "$nginx_bin" -p "$work" -c "$work/nginx.conf" 2>>"$work/logs/error.log" &
nginx_pid=$!
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port_a/" && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/logs/error.log" >&2; exit 1; }
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
