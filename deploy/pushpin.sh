#!/bin/sh
# Pushpin, the front door of the production stack (docs/live.md, docs/operations.md):
# every path on PORT, proxied to gunicorn, and the live streams held here (GRIP).
# Writes its configuration from the environment into a run directory, then becomes
# pushpin (which stops its own processes on SIGTERM/SIGINT).
#
#   PORT                  where browsers connect (default 8000)
#   LIVE_PROXY_BIND       the address to listen on (default 127.0.0.1; 0.0.0.0 in compose)
#   LIVE_UPSTREAM         gunicorn's host:port (default 127.0.0.1:8001)
#   LIVE_GRIP_KEY         the key Pushpin signs its requests with (required; the same
#                         value in the web processes' environment)
#   LIVE_PUBLISH_BIND     host:port of the publish API the relay posts to
#                         (default 127.0.0.1:5561)
#   LIVE_PROXY_RUNDIR     run directory (default /tmp/boxcars-pushpin-$PORT)
#
# Pushpin logs warnings and errors only (log_level=1): at its default it logs three
# lines per request, which gunicorn's access log has already; at a championship's round
# end those lines and their relay through honcho took a tenth of a core.
#   LIVE_PROXY_MESSAGE_RATE, LIVE_PROXY_MESSAGE_HWM  events per second Pushpin sends
#                         to browsers, and how many may wait (a notice to 2,000
#                         viewers is 2,000 events; Pushpin drops what is past the mark)
set -eu
PORT="${PORT:-8000}"
BIND="${LIVE_PROXY_BIND:-127.0.0.1}"
UPSTREAM="${LIVE_UPSTREAM:-127.0.0.1:8001}"
PUBLISH="${LIVE_PUBLISH_BIND:-127.0.0.1:5561}"
RUNDIR="${LIVE_PROXY_RUNDIR:-${TMPDIR:-/tmp}/boxcars-pushpin-$PORT}"
: "${LIVE_GRIP_KEY:?LIVE_GRIP_KEY must be set (the same in the web processes)}"

rm -rf "$RUNDIR"
mkdir -p "$RUNDIR/run" "$RUNDIR/log"
LIBDIR="$(dirname "$(dirname "$(command -v pushpin)")")/lib/pushpin"
cat > "$RUNDIR/pushpin.conf" <<CONF
[global]
include=$LIBDIR/internal.conf
rundir=$RUNDIR/run
ipc_prefix=pushpin-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port=$BIND:$PORT
logdir=$RUNDIR/log
log_level=1
client_buffer_size=8192
client_maxconn=50000

[proxy]
routesfile=$RUNDIR/routes
zurl_out_specs=ipc://{rundir}/{ipc_prefix}zurl-in
zurl_out_stream_specs=ipc://{rundir}/{ipc_prefix}zurl-in-stream
zurl_in_specs=ipc://{rundir}/{ipc_prefix}zurl-out
debug=false
auto_cross_origin=false
accept_x_forwarded_protocol=true
set_x_forwarded_protocol=proto-only
x_forwarded_for=truncate:0,append
x_forwarded_for_trusted=
orig_headers_need_mark=
accept_pushpin_route=false
log_from=false
log_user_agent=false
sig_iss=pushpin
sig_key=$LIVE_GRIP_KEY
upstream_key=
updates_check=off

[handler]
push_in_spec=ipc://{rundir}/{ipc_prefix}push-in
push_in_sub_specs=ipc://{rundir}/{ipc_prefix}push-in-sub
push_in_sub_connect=false
push_in_http_addr=${PUBLISH%:*}
push_in_http_port=${PUBLISH##*:}
push_in_http_max_headers_size=10000
push_in_http_max_body_size=1000000
stats_spec=ipc://{rundir}/{ipc_prefix}stats
command_spec=ipc://{rundir}/{ipc_prefix}command
message_rate=${LIVE_PROXY_MESSAGE_RATE:-200000}
message_hwm=${LIVE_PROXY_MESSAGE_HWM:-2000000}
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
CONF
echo "* $UPSTREAM" > "$RUNDIR/routes"
exec pushpin --config "$RUNDIR/pushpin.conf" --merge-output
