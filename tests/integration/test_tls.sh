# test_tls.sh -- `citadel serve --tls-cert --tls-key`: HTTPS on the one port,
# with Secure cookies, the options that go together refused apart, refused
# WebSocket upgrades and refused request heads answered in whole HTTP/1.1,
# and bad client hellos shrugged off; then the server behind a real proxy
# (nginx, TLS in front, `--behind-tls --trust-proxy`): quotas count the
# client's address, which a client cannot forge, through the proxy or not.
# Needs openssl (a throwaway certificate), curl, python3 and nginx, which
# tools/setup test installs.
source "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
at_exit 'for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$dir"'
pids=
if ! openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
        -days 2 -subj /CN=127.0.0.1 >/dev/null 2>&1; then
    fail "a throwaway certificate" "openssl could not make one"
    exit 0
fi

out=$("$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/x.db" --tls-cert "$dir/cert.pem" 2>&1)
expect "--tls-cert alone is refused" 2 "$?"
out=$(timeout 10 "$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/x.db" --trust-proxy localhost 2>&1)
expect "--trust-proxy wants an address" 2 "$?"

# serve NAME ARGS...: starts `citadel serve` on a free loopback port, its
# log in $dir/NAME.log; sets pid and port (port empty if it never listened).
serve() {
    local name=$1
    shift
    "$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/$name.db" --web "$dir" "$@" \
        >"$dir/$name.log" 2>&1 &
    pid=$!
    pids="$pids $pid"
    port=
    for _ in $(seq 1 300); do
        port=$(sed -n 's|.*listening on https\{0,1\}://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/$name.log")
        [ -n "$port" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$port" ] || fail "$name: serves" "$(cat "$dir/$name.log")"
}

# the session cookie a fresh visitor is given at URL
cookie_of() {
    curl -sk -D - -o /dev/null "$1/api/me" | tr -d '\r' | grep -i '^set-cookie: citadel_session='
}
# expect_cookie NAME SECURE(0|1) COOKIE: HttpOnly and SameSite always,
# Secure exactly when SECURE is 1.
expect_cookie() {
    local ok=1
    case $3 in *'; HttpOnly'*) ;; *) ok=0 ;; esac
    case $3 in *'; SameSite=Lax'*) ;; *) ok=0 ;; esac
    case $3 in *'; Secure'*) [ "$2" = 1 ] || ok=0 ;; *) [ "$2" = 0 ] || ok=0 ;; esac
    if [ "$ok" = 1 ]; then pass "$1"; else fail "$1" "$3"; fi
}

serve tls --tls-cert "$dir/cert.pem" --tls-key "$dir/key.pem"
[ -n "$port" ] || exit 0
tls_pid=$pid tls_port=$port
url=https://127.0.0.1:$port
expect "health over HTTPS" '{"ok":true}' "$(curl -sk "$url/api/health")"
expect_cookie "cookies are Secure, HttpOnly, SameSite over TLS" 1 "$(cookie_of "$url")"
expect "plain HTTP on the TLS port gets no answer" 000 \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/api/health")"
# Refused upgrades are whole HTTP/1.1 answers over TLS too (net.c's refuse).
upgrade() {
    curl -sk -i --http1.1 --max-time 3 -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
        -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$@" "$url/ws" |
        head -1 | tr -d '\r'
}
expect "a WebSocket version other than 13: 426" "HTTP/1.1 426 Upgrade Required" \
    "$(upgrade -H 'Sec-WebSocket-Version: 99')"
expect "a foreign Origin: a whole 403" "HTTP/1.1 403 Forbidden" \
    "$(upgrade -H 'Sec-WebSocket-Version: 13' -H 'Origin: https://evil.example')"

# tls_raw: sends stdin through TLS as it is (no HTTP client to tidy it),
# prints the status line and whether the answer closed the connection.
tls_raw() {
    timeout 20 openssl s_client -quiet -ign_eof -connect "127.0.0.1:$tls_port" \
        2>/dev/null | tr -d '\r' | sed -n '1p; /^connection: close$/I{s/.*/connection: close/;p}'
}
expect "a raw %00 in the path over TLS: a whole 400" "HTTP/1.1 400 Bad Request
connection: close" "$(printf 'GET /a%%00b HTTP/1.1\r\nHost: x\r\n\r\n' | tls_raw)"
expect "a raw NUL in the path over TLS: a whole 400" "HTTP/1.1 400 Bad Request
connection: close" "$(printf 'GET /a\0b HTTP/1.1\r\nHost: x\r\n\r\n' | tls_raw)"
long=$(head -c 20000 /dev/zero | tr '\0' a)
expect "a request head over 16 KiB over TLS: a whole 431" \
    "HTTP/1.1 431 Request Header Fields Too Large
connection: close" "$(printf 'GET / HTTP/1.1\r\nHost: x\r\nX-A: %s\r\n\r\n' "$long" | tls_raw)"
expect "... in many headers too" "HTTP/1.1 431 Request Header Fields Too Large
connection: close" \
    "$(printf 'GET / HTTP/1.1\r\nHost: x\r\nX-A: %s\r\nX-B: %s\r\n\r\n' "${long:0:9000}" \
        "${long:0:9000}" | tls_raw)"
expect "... and a good request after them is served" "HTTP/1.1 200 OK" \
    "$(printf 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' | tls_raw | head -1)"

# WebSocket frames over TLS: a masked ping is answered pong, an unmasked
# one closes the connection unanswered (RFC 6455 5.1), as over plain HTTP.
ws_ping() {
    timeout 30 python3 - "$tls_port" "$1" <<'PY'
import os, socket, ssl, sys
port, masked = int(sys.argv[1]), sys.argv[2] == "masked"
ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=20))
s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
          b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          b"Sec-WebSocket-Version: 13\r\n\r\n")
got = b""
while b"\"hello\"" not in got:
    got += s.recv(4096)
body = b'{"type":"ping"}'
key = os.urandom(4) if masked else b""
s.sendall(bytes([0x81, (0x80 if masked else 0) | len(body)]) + key +
          (bytes(b ^ key[i % 4] for i, b in enumerate(body)) if masked else body))
got = b""
try:
    while b"pong" not in got:
        d = s.recv(4096)
        if not d:
            break
        got += d
except OSError:
    pass
print("pong" if b"pong" in got else "closed")
PY
}
expect "a masked WebSocket frame over TLS is answered" pong "$(ws_ping masked)"
expect "an unmasked one closes the connection unanswered" closed "$(ws_ping unmasked)"

# Bad client hellos: old protocols refused, and a few hundred broken ones
# (garbage, a hello cut short, an SSLv3 hello, plain HTTP, nothing at all)
# leave the server up, serving, with the descriptors it had.
if echo | timeout 10 openssl s_client -tls1 -cipher 'DEFAULT:@SECLEVEL=0' \
        -connect "127.0.0.1:$tls_port" 2>/dev/null | grep -q '^New, TLSv1,'; then
    fail "TLS 1.0 is refused" "a TLS 1.0 session was made"
else
    pass "TLS 1.0 is refused"
fi
fds() { ls "/proc/$tls_pid/fd" 2>/dev/null | wc -l; }
before=$(fds)
served=$(timeout 120 python3 - "$tls_port" <<'PY'
import os, socket, ssl, sys
port = int(sys.argv[1])
hellos = [os.urandom(600),
          bytes.fromhex("1603010200010001fc0303") + b"cut short",
          bytes.fromhex("160300002f0100002b0300") + b"r" * 32 + bytes.fromhex("000004000a002f0100"),
          b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
          b""]
ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
for round in range(3):
    held = []
    for i in range(100):
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        if hellos[i % len(hellos)]:
            s.sendall(hellos[i % len(hellos)])
        held.append(s)
    # a good client while the bad ones are still open
    g = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=20))
    g.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    got = b""
    while True:
        d = g.recv(4096)
        if not d:
            break
        got += d
    print("served" if got.endswith(b'{"ok":true}') else "not served: %r" % got[:200])
    for s in held:
        s.close()
PY
)
expect "300 bad hellos: a good client is served while they are open" "served
served
served" "$served"
expect "... and after them" '{"ok":true}' "$(curl -sk --max-time 10 "$url/api/health")"
after=$(fds)
for _ in $(seq 1 300); do
    [ "$after" -le "$before" ] && break
    sleep 0.1
    after=$(fds)
done
expect "... and holds no more descriptors than before" "$before" "$after"

# A client that says nothing, or stops halfway through its hello, is hung
# up on (lws's timeout): it holds no descriptor for long.
expect "silent clients and half hellos are hung up on" 20 "$(timeout 200 python3 - "$tls_port" <<'PY'
import socket, sys
port = int(sys.argv[1])
held = []
for i in range(20):
    s = socket.create_connection(("127.0.0.1", port))
    if i % 2:
        s.sendall(bytes.fromhex("1603010200010001fc0303") + b"cut")
    s.settimeout(180)
    held.append(s)
gone = 0
for s in held:
    try:
        gone += s.recv(1) == b""
    except ConnectionResetError:
        gone += 1
    except OSError:
        pass
print(gone)
PY
)"

kill "$tls_pid"
wait "$tls_pid"
expect "stops cleanly" 0 "$?"

# --- behind a proxy -----------------------------------------------------------
# Plain HTTP: a cookie is not Secure.
serve plain
[ -n "$port" ] && expect_cookie "cookies are not Secure over plain HTTP" 0 \
    "$(cookie_of "http://127.0.0.1:$port")"

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    fail "nginx is installed (tools/setup test)" "no nginx on this machine"
    exit 0
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
# The server behind nginx, which terminates TLS from 127.0.0.1: every
# other loopback address (127.0.0.2 and up, which Linux answers) is a
# client of its own. Three writes a minute per address.
serve proxied --behind-tls --trust-proxy 127.0.0.1 --limit address-writes-per-minute=3
[ -n "$port" ] || exit 0
back=$port
expect_cookie "cookies are Secure with --behind-tls" 1 "$(cookie_of "http://127.0.0.1:$back")"

# nginx as this user, in the foreground, everything under $dir; on a port
# found free (again if another took it first).
mkdir -p "$dir/nginx"
front=
for _ in 1 2 3 4 5; do
    front=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$dir/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
pid $dir/nginx/nginx.pid;
error_log $dir/nginx/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    server {
        listen 127.0.0.1:$front ssl;
        ssl_certificate $dir/cert.pem;
        ssl_certificate_key $dir/key.pem;
        location / {
            proxy_pass http://127.0.0.1:$back;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
CONF
    "$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" 2>>"$dir/nginx/start.log" &
    ngx=$!
    pids="$pids $ngx"
    up=
    for _ in $(seq 1 100); do
        [ "$(curl -sk --max-time 5 "https://127.0.0.1:$front/api/health")" = '{"ok":true}' ] &&
            up=1 && break
        kill -0 "$ngx" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$up" ] && break
done
if [ -z "$up" ]; then
    fail "nginx in front" "$(cat "$dir/nginx/start.log" "$dir/nginx/error.log" 2>/dev/null)"
    exit 0
fi
pass "nginx in front"
expect_cookie "cookies are Secure through the proxy" 1 "$(cookie_of "https://127.0.0.1:$front")"

# post_from FROM URL [HEADER]: the status of a write (to no route: 404 while
# the quota lasts, 429 after) from the address FROM.
post_from() {
    curl -sk --max-time 10 --interface "$1" -o /dev/null -w '%{http_code}' -X POST \
        ${3:+-H "$3"} "$2/api/nothing"
}
via=https://127.0.0.1:$front
expect "through the proxy, client A: three writes" "404 404 404" \
    "$(post_from 127.0.0.2 "$via") $(post_from 127.0.0.2 "$via") $(post_from 127.0.0.2 "$via")"
expect "... the fourth is over its quota" 429 "$(post_from 127.0.0.2 "$via")"
expect "... client B, another address, is not" 404 "$(post_from 127.0.0.3 "$via")"
expect "... A forging X-Forwarded-For is still A" 429 \
    "$(post_from 127.0.0.2 "$via" 'X-Forwarded-For: 10.1.2.3')"
padding=$(head -c 400 /dev/zero | tr '\0' 9)
expect "... and with one long enough to push the proxy's entry out" 429 \
    "$(post_from 127.0.0.2 "$via" "X-Forwarded-For: $padding, 10.1.2.4")"
expect "... B is still B" 404 "$(post_from 127.0.0.3 "$via")"
# Straight to the server, from an address that is not the proxy:
# X-Forwarded-For names nobody.
direct=http://127.0.0.1:$back
expect "not through the proxy: three writes whatever X-Forwarded-For says" "404 404 404" \
    "$(post_from 127.0.0.4 "$direct" 'X-Forwarded-For: 10.0.0.1') $(post_from 127.0.0.4 "$direct" \
        'X-Forwarded-For: 10.0.0.2') $(post_from 127.0.0.4 "$direct" 'X-Forwarded-For: 10.0.0.3')"
expect "... the fourth, claiming yet another address, is over the quota" 429 \
    "$(post_from 127.0.0.4 "$direct" 'X-Forwarded-For: 10.0.0.4')"
expect "... and claiming to be B changes nothing for B" "429 404" \
    "$(post_from 127.0.0.4 "$direct" 'X-Forwarded-For: 127.0.0.3') $(post_from 127.0.0.3 "$via")"

# The proxy's address as a dual-stack socket spells it is the same proxy.
serve spelled --trust-proxy ::ffff:127.0.0.1 --limit address-writes-per-minute=1
if [ -n "$port" ]; then
    spelled=http://127.0.0.1:$port
    expect "--trust-proxy ::ffff:127.0.0.1 is 127.0.0.1: its clients count apart" "404 429 404" \
        "$(post_from 127.0.0.1 "$spelled" 'X-Forwarded-For: 10.0.0.1') $(post_from 127.0.0.1 "$spelled" \
            'X-Forwarded-For: 10.0.0.1') $(post_from 127.0.0.1 "$spelled" 'X-Forwarded-For: 10.0.0.2')"
    # a last entry that is no address is not the proxy's doing: the
    # request counts as the proxy's own, not as a new client per spelling
    expect "... a last entry that is no address counts as the proxy" "404 429" \
        "$(post_from 127.0.0.1 "$spelled" 'X-Forwarded-For: 10.0.0.3, junk1') $(post_from 127.0.0.1 \
            "$spelled" 'X-Forwarded-For: 10.0.0.3, junk2')"
fi
