#!/usr/bin/env bash
# Bubblewrap for a GPU machine that lacks it (the device machines cannot install packages):
# run here, where apt works, to unpack Debian's bwrap and the libraries it links into
# .gpu-tools/ (git-ignored); name .gpu-tools in the device call's carry and start the command
# with `export PATH=$PWD/.gpu-tools/bin:$PATH`. The wrapper finds its libraries itself.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.gpu-tools
rm -rf "$dest" && mkdir -p "$dest/bin" "$dest/root"
work=$(mktemp -d)
(cd "$work" && apt-get download -q bubblewrap libcap2 libselinux1 libpcre2-8-0 >/dev/null 2>&1)
for deb in "$work"/*.deb; do dpkg -x "$deb" "$dest/root"; done
cat > "$dest/bin/bwrap" <<'WRAP'
#!/bin/sh
here=$(cd "$(dirname "$0")/.." && pwd)
LD_LIBRARY_PATH="$here/root/usr/lib/x86_64-linux-gnu:$here/root/lib/x86_64-linux-gnu" \
  exec "$here/root/usr/bin/bwrap" "$@"
WRAP
chmod +x "$dest/bin/bwrap"
rm -rf "$work"
"$dest/bin/bwrap" --version
