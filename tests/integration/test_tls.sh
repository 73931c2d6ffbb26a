# test_tls.sh -- `citadel serve --tls-cert --tls-key`: HTTPS on the one port,
# with Secure cookies, the options that go together refused apart, and
# refused WebSocket upgrades answered in whole HTTP/1.1.
# Needs openssl (a throwaway certificate) and curl, which tools/setup installs.
source "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
at_exit 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"'
pid=0
if ! openssl req -x509 -newkey rsa:2048 -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
        -days 2 -subj /CN=127.0.0.1 >/dev/null 2>&1; then
    fail "a throwaway certificate" "openssl could not make one"
    exit 0
fi

out=$("$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/x.db" --tls-cert "$dir/cert.pem" 2>&1)
expect "--tls-cert alone is refused" 2 "$?"

"$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/db" --web "$dir" \
    --tls-cert "$dir/cert.pem" --tls-key "$dir/key.pem" >"$dir/log" 2>&1 &
pid=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's|.*listening on https://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/log")
    [ -n "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    fail "serves HTTPS" "$(cat "$dir/log")"
    exit 0
fi
expect "health over HTTPS" '{"ok":true}' "$(curl -sk "https://127.0.0.1:$port/api/health")"
cookie=$(curl -sk -D - -o /dev/null "https://127.0.0.1:$port/api/me" | tr -d '\r' |
         grep -i '^set-cookie: citadel_session=')
if printf '%s' "$cookie" | grep -q '; Secure'; then pass "cookies are Secure over TLS"
else fail "cookies are Secure over TLS" "$cookie"; fi
expect "plain HTTP on the TLS port gets no answer" 000 \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/api/health")"
# Refused upgrades are whole HTTP/1.1 answers over TLS too (net.c's refuse).
upgrade() {
    curl -sk -i --http1.1 --max-time 3 -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
        -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$@" "https://127.0.0.1:$port/ws" |
        head -1 | tr -d '\r'
}
expect "a WebSocket version other than 13: 426" "HTTP/1.1 426 Upgrade Required" \
    "$(upgrade -H 'Sec-WebSocket-Version: 99')"
expect "a foreign Origin: a whole 403" "HTTP/1.1 403 Forbidden" \
    "$(upgrade -H 'Sec-WebSocket-Version: 13' -H 'Origin: https://evil.example')"
kill "$pid"
wait "$pid"
expect "stops cleanly" 0 "$?"
