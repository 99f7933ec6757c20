#!/bin/sh
# usage: unprivileged.sh COMMAND [ARGS...]
# Runs COMMAND as user nobody when the tests run as root (root may write into read-only
# folders, so a permission test would prove nothing); as itself otherwise.
if [ "$(id -u)" -eq 0 ]; then
  exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
fi
exec "$@"
