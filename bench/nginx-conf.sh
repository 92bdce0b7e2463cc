# The head of the nginx configuration bench/run.sh and bench/stack-ceiling.sh run nginx with (sourced, not run):
# the same processes, limits and keep-alive for every nginx leg, so their figures compare.
#
#     nginx_conf_head DIR   prints the configuration up to the http block's common settings (the block left open);
#                           DIR/tmp must exist

nginx_conf_head() {
  local dir="$1" nofile
  nofile="$(ulimit -Hn)"
  [[ "$nofile" =~ ^[0-9]+$ ]] || nofile=65536
  [[ "$(id -u)" == 0 ]] && echo "user root;"
  cat <<EOF
worker_processes auto;
worker_rlimit_nofile $nofile;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 300s;
EOF
}
